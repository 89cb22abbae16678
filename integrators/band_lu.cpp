#include "integrators/band_lu.h"

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunmatrix/sunmatrix_band.h>

#include <algorithm>
#include <string>

#include "core/errors.h"

namespace impactlab {

Bandwidths PatternBandwidths(const Eigen::SparseMatrix<double>& a) {
  Bandwidths w;
  for (Eigen::Index j = 0; j < a.outerSize(); ++j)
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) {
      w.lower = std::max(w.lower, it.row() - it.col());
      w.upper = std::max(w.upper, it.col() - it.row());
    }
  return w;
}

// The SUNDIALS objects of one (n, ml, mu): band matrix with storage upper bandwidth ml + mu (SUNBandMatrix's
// default), the band solver (its pivot array) and an empty serial vector that wraps the caller's x per solve.
struct BandLu::Sundials {
  SUNContext context = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  N_Vector wrapper = nullptr;
  Eigen::Index n = -1;
  Bandwidths widths{-1, -1};

  Sundials() {
    if (SUNContext_Create(nullptr, &context) != 0) throw InternalError("SUNContext_Create failed");
  }
  ~Sundials() {
    Release();
    SUNContext_Free(&context);
  }
  void Release() {
    if (solver) SUNLinSolFree(solver);
    if (matrix) SUNMatDestroy(matrix);
    if (wrapper) N_VDestroy(wrapper);
    solver = nullptr;
    matrix = nullptr;
    wrapper = nullptr;
    n = -1;
  }
  void Resize(Eigen::Index size, Bandwidths w) {
    if (size == n && w.lower == widths.lower && w.upper == widths.upper) return;
    Release();
    const auto len = static_cast<sunindextype>(size);
    matrix = SUNBandMatrix(len, static_cast<sunindextype>(w.upper), static_cast<sunindextype>(w.lower), context);
    wrapper = N_VNewEmpty_Serial(len, context);
    if (matrix && wrapper) solver = SUNLinSol_Band(wrapper, matrix, context);
    if (!solver) {
      Release();
      throw InternalError("SUNDIALS band matrix/solver creation failed for n = " + std::to_string(size));
    }
    n = size;
    widths = w;
  }
};

BandLu::BandLu() = default;
BandLu::~BandLu() = default;

bool BandLu::Factor(const Eigen::SparseMatrix<double>& a, Bandwidths widths) {
  if (a.rows() != a.cols()) throw InternalError("BandLu::Factor: matrix not square");
  if (!sundials_) sundials_ = std::make_unique<Sundials>();
  Sundials& s = *sundials_;
  s.Resize(a.rows(), widths);
  SUNMatZero(s.matrix);  // the rows of the fill (above mu) must start at zero
  for (Eigen::Index j = 0; j < a.outerSize(); ++j) {
    realtype* column = SUNBandMatrix_Column(s.matrix, static_cast<sunindextype>(j));  // points at the diagonal
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) {
      const Eigen::Index offset = it.row() - j;
      if (offset > widths.lower || -offset > widths.upper)
        throw InternalError("BandLu::Factor: entry (" + std::to_string(it.row()) + ", " + std::to_string(j) +
                            ") outside the bandwidths");
      column[offset] = it.value();
    }
  }
  ++factorizations_;
  return SUNLinSolSetup(s.solver, s.matrix) == SUNLS_SUCCESS;  // SUNLS_LUFACT_FAIL (> 0): zero pivot
}

bool BandLu::SolveInPlace(Eigen::VectorXd& x) {
  Sundials& s = *sundials_;
  if (x.size() != s.n) throw InternalError("BandLu::SolveInPlace: size mismatch");
  N_VSetArrayPointer_Serial(x.data(), s.wrapper);
  // x and b the same vector: SUNLinSolSolve_Band copies b into x (a no-op here) and back-substitutes in place.
  const int flag = SUNLinSolSolve(s.solver, s.matrix, s.wrapper, s.wrapper, 0.0);
  N_VSetArrayPointer_Serial(nullptr, s.wrapper);
  return flag == SUNLS_SUCCESS;
}

}  // namespace impactlab
