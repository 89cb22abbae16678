// ImplicitMidpoint: the symplectic midpoint rule on a ConstantMassSystem [Hairer, Lubich & Wanner 2006,
// §VI.3; docs/theory.md §7]:
//
//   Δq = h v_{n+½},   M Δv = −h [∇V(q_{n+½}) + C(q_{n+½}) Δq/h] + h f_ext(t_{n+½})
//
// Second order, symplectic, preserves quadratic invariants (angular momentum for invariant V), but NOT
// energy for non-quadratic V: ΔH = ΔV − ∇V(q_{n+½})·Δq − D_n ≠ −D_n (energy is gained at contact onset
// when δ_{n+½} < 0 < δ_{n+1}). D_n = Δqᵀ C(q_{n+½}) Δq / h is what the ledger records. The Newton
// Jacobian is exact: ½∇²V(q_{n+½}) + C(q_{n+½})/h + ½ ∂(C(q) w)/∂q|_{q_{n+½}}, w = Δq/h (the last term from the
// model's ConstantMassSystem::AppendDampingForceGradientEntries; a model without it leaves the term out and damped
// steps converge linearly, to the same residual test).
#pragma once

#include "integrators/midpoint_family_integrator.h"

namespace impactlab {

/// F̄ of the midpoint rule above and (when `jacobian` is non-null) ∂F̄/∂q₁, for any ConstantMassSystem.
void EvaluateMidpointRuleDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                       const Eigen::VectorXd& q1, double h, DiscreteForceEvaluation& out,
                                       NewtonJacobian* jacobian);

class ImplicitMidpoint final : public MidpointFamilyIntegrator {
 public:
  explicit ImplicitMidpoint(ImplicitSchemeOptions options = {}) : MidpointFamilyIntegrator(options) {}
  std::string name() const override { return "implicit_midpoint"; }
  IntegratorTraits traits() const override;
  DiscreteGradientForm contact_form() const override { return DiscreteGradientForm::kMidpoint; }

 private:
  void EvaluateDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                             double h, DiscreteForceEvaluation& out, NewtonJacobian* jacobian) const override;
};

}  // namespace impactlab
