#include "integrators/simo_tarnow.h"

namespace impactlab {

IntegratorTraits SimoTarnow::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.implicit = true;
  t.conserves_energy = true;
  t.conserves_momentum = true;
  t.library = "impactlab";
  t.reference = "Simo & Tarnow 1992 (ZAMP 43:757); Greenspan 1984; THEORY.md §7";
  t.damping_treatment = "Phi-form: c = (Phi(d1) - Phi(d0))/(d1 - d0), dissipation c (d1 - d0)^2 / h exactly";
  return t;
}

void SimoTarnow::Prepare(const ConstantMassSystem& system) {
  structure_ = &RequirePairPotentialStructure(system, name());
}

void SimoTarnow::EvaluateDiscreteForce(const ConstantMassSystem&, const Eigen::VectorXd& q0,
                                       const Eigen::VectorXd& q1, double h, DiscreteForceEvaluation& out,
                                       NewtonJacobian* jacobian) const {
  EvaluateContactTermDiscreteForce(*structure_, DiscreteGradientForm::kGapQuotient, q0, q1, h, out, jacobian);
}

}  // namespace impactlab
