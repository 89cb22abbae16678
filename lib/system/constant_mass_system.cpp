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

void ConstantMassSystem::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  Eigen::VectorXd f(s.q.size()), g(s.q.size());
  PotentialGradient(s.q, g);
  ExternalForce(s.t, f);
  f -= g;
  // Without velocity-dependent forces C = 0 by definition (MechanicalSystem::velocity_dependent_forces):
  // skip assembling the sparse damping matrix.
  if (velocity_dependent_forces()) f.noalias() -= DampingMatrix(s.q) * s.v;
  v_dot = f.cwiseQuotient(MassDiagonal());
}

double ConstantMassSystem::KineticEnergy(const MechanicalState& s) const {
  return 0.5 * s.v.dot(MassDiagonal().cwiseProduct(s.v));
}

double ConstantMassSystem::DissipationPower(const MechanicalState& s) const {
  if (!velocity_dependent_forces()) return 0.0;  // C = 0
  return s.v.dot(DampingMatrix(s.q) * s.v);
}

}  // namespace impactlab
