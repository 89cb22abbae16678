#include "system/pair_potential_structure.h"

#include <cmath>

#include "core/errors.h"

namespace impactlab {
namespace {
/// A pair separation of dimension ≤ 3 on the stack (the per-term heap vectors dominated a chain step).
using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 3, 1>;

SmallVector SmallPairSeparation(const ContactTerm& t, const Eigen::VectorXd& q) {
  SmallVector d = q.segment(t.first_b, t.dim) - q.segment(t.first_a, t.dim);
  if (t.pair_offset.size() > 0) d += t.pair_offset;
  return d;
}
}  // namespace

const Eigen::VectorXd& PairPotentialStructure::LinearPotentialCoefficientsRef() const {
  thread_local Eigen::VectorXd b;
  b = LinearPotentialCoefficients();
  return b;
}

Eigen::VectorXd PairSeparation(const ContactTerm& t, const Eigen::VectorXd& q) {
  Eigen::VectorXd d = q.segment(t.first_b, t.dim) - q.segment(t.first_a, t.dim);
  if (t.pair_offset.size() > 0) d += t.pair_offset;
  return d;
}


double PairGap(const ContactTerm& t, Eigen::Ref<const Eigen::VectorXd> q) {
  if (t.dim > 3) throw InvalidParameter("pair term dim", t.dim, "1, 2 or 3");
  const SmallVector u = q.segment(t.first_b, t.dim) - q.segment(t.first_a, t.dim);
  if (t.pair_offset.size() == 0) return t.radius_sum - u.norm();
  const SmallVector d = t.pair_offset + u;
  const double reference = t.radius_sum * t.radius_sum - t.pair_offset.squaredNorm();
  return (reference - 2.0 * t.pair_offset.dot(u) - u.squaredNorm()) / (t.radius_sum + d.norm());
}

double ContactOverlap(const ContactTerm& t, Eigen::Ref<const Eigen::VectorXd> q) {
  if (t.kind == ContactTerm::Kind::kWall) return WallGap(t, q);
  return PairGap(t, q);
}

namespace {

// Visits every term of s (subset == nullptr) or the terms subset[0], subset[1], ... in that order.
template <class Visit>
void ForEachTerm(const PairPotentialStructure& s, const std::vector<int>* subset, Visit&& visit) {
  const auto& terms = s.ContactTerms();
  if (subset == nullptr) {
    for (const auto& t : terms) visit(t);
  } else {
    for (const int k : *subset) visit(terms[static_cast<size_t>(k)]);
  }
}

}  // namespace

double StructurePotential(const PairPotentialStructure& s, const Eigen::VectorXd& q, const std::vector<int>* subset) {
  double v = 0.0;
  ForEachTerm(s, subset, [&](const ContactTerm& t) {
    const double delta = ContactOverlap(t, q);
    if (delta > 0.0) v += t.elastic->Potential(delta);
  });
  const Eigen::VectorXd& b = s.LinearPotentialCoefficientsRef();
  if (b.size() > 0) v += b.dot(q);
  return v;
}

void StructurePotentialGradient(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                Eigen::Ref<Eigen::VectorXd> gradient, const std::vector<int>* subset) {
  gradient.setZero();
  ForEachTerm(s, subset, [&](const ContactTerm& t) {
    const double delta = ContactOverlap(t, q);
    if (delta <= 0.0) return;
    const double f = t.elastic->Force(delta);  // W'(δ)
    if (t.kind == ContactTerm::Kind::kWall) {
      for (const auto& [j, g] : t.wall_gradient) gradient[j] += f * g;
    } else {
      const SmallVector d = SmallPairSeparation(t, q);
      const double r = d.norm();
      if (r == 0.0) return;  // coincident centres: direction undefined, no force
      // ∇_b δ = −d/r, ∇_a δ = +d/r
      gradient.segment(t.first_b, t.dim) -= f * d / r;
      gradient.segment(t.first_a, t.dim) += f * d / r;
    }
  });
  const Eigen::VectorXd& b = s.LinearPotentialCoefficientsRef();
  if (b.size() > 0) gradient += b;
}

namespace {
using SmallMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 3, 3>;

// |d| summed in index order: the order of Eigen's VectorXd::norm() for dim ≤ 3 (one aligned packet, then the
// rest), so that the stack-sized blocks below give the values of the former heap-vector code.
double SequentialNorm(const SmallVector& d) {
  double ss = d[0] * d[0];
  for (Eigen::Index i = 1; i < d.size(); ++i) ss += d[i] * d[i];
  return std::sqrt(ss);
}
}  // namespace

void AppendStructurePotentialHessianEntries(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                            SparseEntries& entries, const std::vector<int>* subset) {
  auto add = [&](Eigen::Index i, Eigen::Index j, double v) { entries.emplace_back(i, j, v); };
  ForEachTerm(s, subset, [&](const ContactTerm& t) {
    const double delta = ContactOverlap(t, q);
    if (delta <= 0.0) return;
    const double f = t.elastic->Force(delta), k = t.elastic->Stiffness(delta);
    if (t.kind == ContactTerm::Kind::kWall) {
      for (const auto& [i, gi] : t.wall_gradient)
        for (const auto& [j, gj] : t.wall_gradient) add(i, j, k * gi * gj);
    } else {
      const SmallVector d = SmallPairSeparation(t, q);
      const double r = SequentialNorm(d);
      if (r == 0.0) return;
      const SmallVector n = d / r;
      // block on (b, b): W'' n nᵀ − W' (I − n nᵀ)/r   (∇²_bb δ = −(I − n nᵀ)/r)
      const SmallMatrix nn = n * n.transpose();
      const SmallMatrix kbb = k * nn - f * (SmallMatrix::Identity(t.dim, t.dim) - nn) / r;
      AddPairBlock(t, kbb, add);
    }
  });
}

void AppendStructureDampingMatrixEntries(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                         SparseEntries& entries, const std::vector<int>* subset) {
  auto add = [&](Eigen::Index i, Eigen::Index j, double v) { entries.emplace_back(i, j, v); };
  ForEachTerm(s, subset, [&](const ContactTerm& t) {
    const double delta = ContactOverlap(t, q);
    if (delta <= 0.0) return;
    const double c = t.damping->Coefficient(delta);
    if (c == 0.0) return;
    if (t.kind == ContactTerm::Kind::kWall) {
      for (const auto& [i, gi] : t.wall_gradient)
        for (const auto& [j, gj] : t.wall_gradient) add(i, j, c * gi * gj);
    } else {
      const SmallVector d = SmallPairSeparation(t, q);
      const double r = SequentialNorm(d);
      if (r == 0.0) return;
      const SmallVector n = d / r;
      AddPairBlock(t, SmallMatrix(c * n * n.transpose()), add);
    }
  });
}

void AppendStructureDampingForceGradientEntries(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                                const Eigen::VectorXd& w, SparseEntries& entries,
                                                const std::vector<int>* subset) {
  // ∂(C(q) w)/∂q with C = Σ C_k(δ_k) g_k g_kᵀ, g = ∇δ:  Σ C'(δ)(g·w) g gᵀ + C(δ)[g (∇²δ w)ᵀ + (g·w) ∇²δ].
  auto add = [&](Eigen::Index i, Eigen::Index j, double v) { entries.emplace_back(i, j, v); };
  ForEachTerm(s, subset, [&](const ContactTerm& t) {
    const double delta = ContactOverlap(t, q);
    if (delta <= 0.0) return;
    const double dc = t.damping->CoefficientDerivative(delta);
    if (t.kind == ContactTerm::Kind::kWall) {  // ∇²δ = 0
      double gw = 0.0;
      for (const auto& [j, gj] : t.wall_gradient) gw += gj * w[j];
      for (const auto& [i, gi] : t.wall_gradient)
        for (const auto& [j, gj] : t.wall_gradient) add(i, j, dc * gw * gi * gj);
    } else {
      // n = d/r, d = x_b − x_a (+ offset): g_a = n, g_b = −n, g·w = −u with u = n·(w_b − w_a); ∇²δ has the pair
      // pattern of K = −P/r (P = I − n nᵀ), so ∇²δ w = (z, −z) with z = P (w_b − w_a)/r. The (b, b) block:
      //   −C' u n nᵀ + C (n zᵀ + u P/r).
      const double c = t.damping->Coefficient(delta);
      const SmallVector d = SmallPairSeparation(t, q);
      const double r = SequentialNorm(d);
      if (r == 0.0) return;
      const SmallVector n = d / r;
      const SmallVector dw = w.segment(t.first_b, t.dim) - w.segment(t.first_a, t.dim);
      const double u = n.dot(dw);
      const SmallMatrix p = SmallMatrix::Identity(t.dim, t.dim) - n * n.transpose();
      const SmallVector z = p * dw / r;
      const SmallMatrix k = -dc * u * n * n.transpose() + c * (n * z.transpose() + u * p / r);
      AddPairBlock(t, k, add);
    }
  });
}

std::size_t StructureMaxSparseEntries(const PairPotentialStructure& s) {
  std::size_t bound = 0;
  for (const ContactTerm& t : s.ContactTerms())
    bound += t.kind == ContactTerm::Kind::kWall ? t.wall_gradient.size() * t.wall_gradient.size()
                                                : 4 * static_cast<std::size_t>(t.dim) * static_cast<std::size_t>(t.dim);
  return bound;
}

Eigen::SparseMatrix<double> StructurePotentialHessian(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                                      const std::vector<int>* subset) {
  SparseEntries trip;
  AppendStructurePotentialHessianEntries(s, q, trip, subset);
  Eigen::SparseMatrix<double> h(q.size(), q.size());
  h.setFromTriplets(trip.begin(), trip.end());
  return h;
}

Eigen::SparseMatrix<double> StructureDampingMatrix(const PairPotentialStructure& s, const Eigen::VectorXd& q,
                                                   const std::vector<int>* subset) {
  SparseEntries trip;
  AppendStructureDampingMatrixEntries(s, q, trip, subset);
  Eigen::SparseMatrix<double> c(q.size(), q.size());
  c.setFromTriplets(trip.begin(), trip.end());
  return c;
}

void ValidateContactTerms(const PairPotentialStructure& s, Eigen::Index n) {
  const auto& terms = s.ContactTerms();
  for (size_t k = 0; k < terms.size(); ++k) {
    const auto& t = terms[k];
    const std::string key = "contact_terms[" + std::to_string(k) + "]";
    if (!t.elastic || !t.damping) throw InvalidParameter(key + ".law", "<null>", "an elastic and a damping law");
    if (t.kind == ContactTerm::Kind::kWall) {
      for (const auto& [j, g] : t.wall_gradient) {
        (void)g;
        if (j < 0 || j >= n) throw InvalidParameter(key + ".index", static_cast<double>(j), "[0, n)");
      }
    } else {
      if (t.dim < 1) throw InvalidParameter(key + ".dim", t.dim, ">= 1");
      if (t.pair_offset.size() != 0 && t.pair_offset.size() != t.dim)
        throw InvalidParameter(key + ".pair_offset", static_cast<double>(t.pair_offset.size()), "empty or dim entries");
      if (t.first_a < 0 || t.first_a + t.dim > n || t.first_b < 0 || t.first_b + t.dim > n)
        throw InvalidParameter(key + ".first", static_cast<double>(std::max(t.first_a, t.first_b)),
                               "body coordinates inside [0, n)");
    }
  }
}

}  // namespace impactlab
