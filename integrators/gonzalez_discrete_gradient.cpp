#include "integrators/gonzalez_discrete_gradient.h"

#include <cmath>
#include <limits>

namespace impactlab {

IntegratorTraits GonzalezDiscreteGradient::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.implicit = true;
  t.conserves_energy = true;
  t.conserves_momentum = false;
  t.library = "impactlab";
  t.reference = "Gonzalez 1996 (J. Nonlinear Sci. 6:449), midpoint discrete gradient; docs/theory.md §7";
  t.damping_treatment = "C(q_mid) (q1 - q0)/h; dissipation (q1-q0)^T C(q_mid) (q1-q0)/h exactly";
  return t;
}

void GonzalezDiscreteGradient::EvaluateDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                                     const Eigen::VectorXd& q1, double h,
                                                     DiscreteForceEvaluation& out, NewtonJacobian* jacobian) const {
  EvaluateGonzalezDiscreteForce(system, q0, q1, h, out, jacobian);
}

void EvaluateGonzalezDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                   const Eigen::VectorXd& q1, double h, DiscreteForceEvaluation& out,
                                   NewtonJacobian* jacobian) {
  const Eigen::Index n = q0.size();
  const Eigen::VectorXd qm = 0.5 * (q0 + q1), dq = q1 - q0;
  Eigen::VectorXd g(n);
  system.PotentialGradient(qm, g);
  const double v0 = system.Potential(q0), v1 = system.Potential(q1);
  const double gdq = g.dot(dq), numerator = (v1 - v0) - gdq, dq2 = dq.squaredNorm();
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  // Guard: the numerator is noise when below the round-off of its terms (then r = 0 is as good).
  const bool use_r = dq2 > 0.0 && std::abs(numerator) > 8.0 * kEps * (std::abs(v0) + std::abs(v1) + std::abs(gdq));
  const double r = use_r ? numerator / dq2 : 0.0;
  const Eigen::SparseMatrix<double> c = system.DampingMatrix(qm);
  const Eigen::VectorXd damping = c * dq / h;
  out.force = g + r * dq + damping;
  // Magnitude of the terms that cancel in r Δq: (|V(q₁)| + |V(q₀)| + |∇V·Δq|)/|Δq| (round-off ~ε times it).
  const double r_noise = use_r ? (std::abs(v0) + std::abs(v1) + std::abs(gdq)) / std::sqrt(dq2) : 0.0;
  out.scale = g.lpNorm<Eigen::Infinity>() + std::abs(r) * dq.lpNorm<Eigen::Infinity>() + r_noise +
              damping.lpNorm<Eigen::Infinity>();
  out.dissipation = dq.dot(damping);
  if (jacobian) {
    const Eigen::SparseMatrix<double> hess = system.PotentialHessian(qm);
    Eigen::SparseMatrix<double> identity(n, n);
    identity.setIdentity();
    jacobian->matrix = 0.5 * hess + r * identity + c / h;
    if (use_r) {
      Eigen::VectorXd g1(n);
      system.PotentialGradient(q1, g1);
      jacobian->u = dq;
      jacobian->w = (g1 - g - 0.5 * (hess * dq) - 2.0 * r * dq) / dq2;
    } else {
      jacobian->u.resize(0);
      jacobian->w.resize(0);
    }
  }
}

}  // namespace impactlab
