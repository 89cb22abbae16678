// Yoshida4: the fourth-order symplectic composition of velocity Verlet [Yoshida 1990, Phys. Lett. A 150,
// 262, eq. (4.4)/(5.19); Forest & Ruth 1990]: three Verlet sub-steps of lengths w₁h, w₀h, w₁h with
//   w₁ = 1/(2 − 2^{1/3}),  w₀ = −2^{1/3}/(2 − 2^{1/3})   (w₀ + 2w₁ = 1),
// each sub-step τ:  v ← v + ½τ a(q, v);  q ← q + τ N(q) v;  v ← v + ½τ a(q, v)   (kick–drift–kick).
// Symmetric, symplectic, order 4 for separable Hamiltonians. Velocity-dependent forces are evaluated
// explicitly at the velocity available (then the scheme is neither symplectic nor fourth order). The
// dissipated work D advances by the trapezoidal rule of the dissipation power over each sub-step; history
// variables z by one UpdateHistory per step (the MechanicalSystem contract). Not event-aware: the driver
// locates contact events on the Hermite interpolant.
#pragma once

#include "integrators/integrator.h"

class Yoshida4 final : public impactlab::Integrator {
 public:
  std::string name() const override { return "yoshida4"; }
  impactlab::IntegratorTraits traits() const override;

 private:
  impactlab::StepResult DoStep(const impactlab::MechanicalSystem& system, impactlab::MechanicalState& state,
                               double h) override;
  Eigen::VectorXd a_, qdot_;
};
