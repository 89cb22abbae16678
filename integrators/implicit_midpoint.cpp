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
  EvaluateMidpointRuleDiscreteForce(system, q0, q1, h, out, jacobian);
}

void EvaluateMidpointRuleDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                       const Eigen::VectorXd& q1, double h, DiscreteForceEvaluation& out,
                                       NewtonJacobian* jacobian) {
  // Storage reused between calls (out.scratch); the values are those of
  //   F̄ = ∇V(q_m) + C(q_m) Δq/h,   ∂F̄/∂q₁ = ½∇²V(q_m) + C(q_m)/h + ½ ∂(C(q) Δq/h)/∂q|q_m   (the header's formulas).
  const Eigen::Index n = q0.size();
  DiscreteForceScratch& w = out.scratch;
  w.qm = 0.5 * (q0 + q1);
  w.dq = q1 - q0;
  const Eigen::VectorXd &qm = w.qm, &dq = w.dq;
  out.force.resize(n);
  system.PotentialGradient(qm, out.force);
  w.entries.clear();
  system.AppendDampingMatrixEntries(qm, w.entries);
  w.damping_assembler.Assemble(n, n, w.entries, w.damping_matrix);
  w.damping.noalias() = w.damping_matrix * dq;
  w.damping /= h;
  const Eigen::VectorXd& damping = w.damping;
  out.scale = out.force.lpNorm<Eigen::Infinity>() + damping.lpNorm<Eigen::Infinity>();
  out.force += damping;
  out.dissipation = dq.dot(damping);
  if (jacobian) {
    w.entries.clear();
    system.AppendPotentialHessianEntries(qm, w.entries);
    w.hessian_assembler.Assemble(n, n, w.entries, w.hessian);
    // + ½ ∂(C(q) w)/∂q at q_m, w = Δq/h: the damping force's change with the midpoint (C' ≠ 0 on damped contacts).
    w.rate = dq / h;
    const bool rate_term = AssembleDampingForceGradient(system, qm, w.rate, w.entries, w.damping_gradient_assembler,
                                                       w.damping_gradient);
    const SparseTerm terms[3] = {{&w.hessian, 0.5, false}, {&w.damping_matrix, h, true}, {&w.damping_gradient, 0.5, false}};
    SparseCombine(n, terms, rate_term ? 3 : 2, jacobian->matrix);  // 0.5 * H + c / h (+ 0.5 * D)
    jacobian->u.resize(0);
    jacobian->w.resize(0);
  }
}

}  // namespace impactlab
