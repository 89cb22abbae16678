#include "integrators/invariant_discrete_gradient.h"

namespace impactlab {

IntegratorTraits InvariantDiscreteGradient::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.implicit = true;
  t.conserves_energy = true;
  t.conserves_momentum = true;
  t.library = "impactlab";
  t.reference = "Gonzalez 1996 (J. Nonlinear Sci. 6:449), DG in the invariants |x_b - x_a|^2; THEORY.md §7";
  t.damping_treatment = "Phi-form in the invariant C: c = (Phi(C1) - Phi(C0))/(C1 - C0), dissipation c dC^2 / h";
  return t;
}

void InvariantDiscreteGradient::Prepare(const ConstantMassSystem& system) {
  structure_ = &RequirePairPotentialStructure(system, name());
}

void InvariantDiscreteGradient::EvaluateDiscreteForce(const ConstantMassSystem&, const Eigen::VectorXd& q0,
                                                      const Eigen::VectorXd& q1, double h,
                                                      DiscreteForceEvaluation& out, NewtonJacobian* jacobian) const {
  EvaluateContactTermDiscreteForce(*structure_, DiscreteGradientForm::kInvariantQuotient, q0, q1, h, out, jacobian);
}

}  // namespace impactlab
