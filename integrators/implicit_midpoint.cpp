#include "integrators/implicit_midpoint.h"

namespace impactlab {

IntegratorTraits ImplicitMidpoint::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.implicit = true;
  t.symplectic = true;
  t.conserves_momentum = true;
  t.library = "impactlab";
  t.reference = "Hairer, Lubich & Wanner 2006, Geometric Numerical Integration, §VI.3; docs/theory.md §7";
  t.damping_treatment = "C(q_mid) (q1 - q0)/h; dissipation (q1-q0)^T C(q_mid) (q1-q0)/h";
  return t;
}

void ImplicitMidpoint::EvaluateDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                             const Eigen::VectorXd& q1, double h, DiscreteForceEvaluation& out,
                                             NewtonJacobian* jacobian) const {
  const Eigen::VectorXd qm = 0.5 * (q0 + q1), dq = q1 - q0;
  out.force.resize(q0.size());
  system.PotentialGradient(qm, out.force);
  const Eigen::SparseMatrix<double> c = system.DampingMatrix(qm);
  const Eigen::VectorXd damping = c * dq / h;
  out.scale = out.force.lpNorm<Eigen::Infinity>() + damping.lpNorm<Eigen::Infinity>();
  out.force += damping;
  out.dissipation = dq.dot(damping);
  if (jacobian) {
    jacobian->matrix = 0.5 * system.PotentialHessian(qm) + c / h;
    jacobian->u.resize(0);
    jacobian->w.resize(0);
  }
}

}  // namespace impactlab
