#include "system/constant_mass_system.h"

#include <algorithm>
#include <cmath>

namespace impactlab {

Eigen::SparseMatrix<double> ConstantMassSystem::PotentialHessian(const Eigen::VectorXd& q) const {
  const Eigen::Index n = q.size();
  Eigen::MatrixXd h(n, n);
  Eigen::VectorXd gp(n), gm(n), qp = q, qm = q;
  for (Eigen::Index j = 0; j < n; ++j) {
    const double step = 1e-6 * std::max(1.0, std::abs(q[j]));
    qp[j] = q[j] + step;
    qm[j] = q[j] - step;
    PotentialGradient(qp, gp);
    PotentialGradient(qm, gm);
    h.col(j) = (gp - gm) / (2.0 * step);
    qp[j] = qm[j] = q[j];
  }
  return h.sparseView();
}

Eigen::SparseMatrix<double> ConstantMassSystem::DampingMatrix(const Eigen::VectorXd& q) const {
  return Eigen::SparseMatrix<double>(q.size(), q.size());
}

namespace {
void AppendStoredEntries(const Eigen::SparseMatrix<double>& m, SparseEntries& entries) {
  for (Eigen::Index c = 0; c < m.outerSize(); ++c)
    for (Eigen::SparseMatrix<double>::InnerIterator it(m, c); it; ++it) entries.emplace_back(it.row(), it.col(), it.value());
}

// Per-thread storage of Acceleration (the model is const and may be shared between threads): sized on first use,
// reused afterwards, so that an explicit or predictor evaluation allocates nothing in steady state.
struct AccelerationScratch {
  Eigen::VectorXd gradient, mass, damping_force;
  SparseEntries entries;
  SparseAssembler assembler;
  Eigen::SparseMatrix<double> damping;
};

// C(q) assembled in the scratch's kept storage: the values and pattern of DampingMatrix(q).
const Eigen::SparseMatrix<double>& AssembleDamping(const ConstantMassSystem& system, const Eigen::VectorXd& q,
                                                   AccelerationScratch& scratch) {
  const Eigen::Index n = q.size();
  scratch.entries.clear();
  if (const std::size_t bound = system.MaxSparseEntries(); bound > 0) {
    scratch.entries.reserve(bound);
    scratch.assembler.ReserveEntries(bound, n);
    ReserveNonZeros(scratch.damping, static_cast<Eigen::Index>(bound));
  }
  system.AppendDampingMatrixEntries(q, scratch.entries);
  scratch.assembler.Assemble(n, n, scratch.entries, scratch.damping);
  return scratch.damping;
}
}  // namespace

void ConstantMassSystem::AppendPotentialHessianEntries(const Eigen::VectorXd& q, SparseEntries& entries) const {
  AppendStoredEntries(PotentialHessian(q), entries);
}

void ConstantMassSystem::AppendDampingMatrixEntries(const Eigen::VectorXd& q, SparseEntries& entries) const {
  AppendStoredEntries(DampingMatrix(q), entries);
}

void ConstantMassSystem::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  // v̇ = M⁻¹ (f_ext − ∇V − C v), accumulated in v_dot in this order (the order of the former temporaries f, g).
  thread_local AccelerationScratch scratch;
  const Eigen::Index n = s.q.size();
  if (scratch.gradient.size() != n) scratch.gradient.resize(n);
  if (scratch.mass.size() != n) scratch.mass.resize(n);
  PotentialGradient(s.q, scratch.gradient);
  ExternalForce(s.t, v_dot);
  v_dot -= scratch.gradient;
  // Without velocity-dependent forces C = 0 by definition (MechanicalSystem::velocity_dependent_forces):
  // skip assembling the sparse damping matrix.
  if (velocity_dependent_forces()) v_dot.noalias() -= AssembleDamping(*this, s.q, scratch) * s.v;
  WriteMassDiagonal(scratch.mass);
  v_dot = v_dot.cwiseQuotient(scratch.mass);
}

double ConstantMassSystem::KineticEnergy(const MechanicalState& s) const {
  return 0.5 * s.v.dot(MassDiagonal().cwiseProduct(s.v));
}

double ConstantMassSystem::DissipationPower(const MechanicalState& s) const {
  if (!velocity_dependent_forces()) return 0.0;  // C = 0
  // vᵀ (C v), C v formed in per-thread storage (the values of s.v.dot(DampingMatrix(s.q) * s.v))
  thread_local AccelerationScratch scratch;
  if (scratch.damping_force.size() != s.v.size()) scratch.damping_force.resize(s.v.size());
  scratch.damping_force.noalias() = AssembleDamping(*this, s.q, scratch) * s.v;
  return s.v.dot(scratch.damping_force);
}

}  // namespace impactlab
