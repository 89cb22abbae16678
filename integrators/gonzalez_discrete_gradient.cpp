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
  // Storage reused between calls (out.scratch); values as in the header's formulas.
  DiscreteForceScratch& ws = out.scratch;
  ws.qm = 0.5 * (q0 + q1);
  ws.dq = q1 - q0;
  const Eigen::VectorXd &qm = ws.qm, &dq = ws.dq;
  if (ws.g.size() != n) ws.g.resize(n);
  Eigen::VectorXd& g = ws.g;
  system.PotentialGradient(qm, g);
  const double v0 = system.Potential(q0), v1 = system.Potential(q1);
  const double gdq = g.dot(dq), numerator = (v1 - v0) - gdq, dq2 = dq.squaredNorm();
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  // Guard: the numerator is noise when below the round-off of its terms (then r = 0 is as good).
  const bool use_r = dq2 > 0.0 && std::abs(numerator) > 8.0 * kEps * (std::abs(v0) + std::abs(v1) + std::abs(gdq));
  const double r = use_r ? numerator / dq2 : 0.0;
  ws.entries.clear();
  system.AppendDampingMatrixEntries(qm, ws.entries);
  ws.damping_assembler.Assemble(n, n, ws.entries, ws.damping_matrix);
  ws.damping.noalias() = ws.damping_matrix * dq;
  ws.damping /= h;
  const Eigen::VectorXd& damping = ws.damping;
  out.force = g + r * dq + damping;
  // Magnitude of the terms that cancel in r Δq: (|V(q₁)| + |V(q₀)| + |∇V·Δq|)/|Δq| (round-off ~ε times it).
  const double r_noise = use_r ? (std::abs(v0) + std::abs(v1) + std::abs(gdq)) / std::sqrt(dq2) : 0.0;
  out.scale = g.lpNorm<Eigen::Infinity>() + std::abs(r) * dq.lpNorm<Eigen::Infinity>() + r_noise +
              damping.lpNorm<Eigen::Infinity>();
  out.dissipation = dq.dot(damping);
  if (jacobian) {
    ws.entries.clear();
    system.AppendPotentialHessianEntries(qm, ws.entries);
    ws.hessian_assembler.Assemble(n, n, ws.entries, ws.hessian);
    // + ½ ∂(C(q) w)/∂q at q_m, w = Δq/h (the damping force's change with the midpoint).
    ws.rate = dq / h;
    const bool rate_term = AssembleDampingForceGradient(system, qm, ws.rate, ws.entries, ws.damping_gradient_assembler,
                                                       ws.damping_gradient);
    const SparseTerm terms[4] = {{&ws.hessian, 0.5, false},
                                 {nullptr, r, false},
                                 {&ws.damping_matrix, h, true},
                                 {&ws.damping_gradient, 0.5, false}};
    SparseCombine(n, terms, rate_term ? 4 : 3, jacobian->matrix);  // 0.5 * hess + r * identity + c / h (+ 0.5 * D)
    ParkOrTake(jacobian->u, use_r, n, ws.parked);
    ParkOrTake(jacobian->w, use_r, n, ws.parked);
    if (use_r) {
      if (ws.g1.size() != n) ws.g1.resize(n);
      system.PotentialGradient(q1, ws.g1);
      ws.hessian_dq.noalias() = ws.hessian * dq;
      jacobian->u = dq;
      jacobian->w = (ws.g1 - g - 0.5 * ws.hessian_dq - 2.0 * r * dq) / dq2;
    }
  }
}

}  // namespace impactlab
