// McLachlan's 4th-order symplectic Runge–Kutta–Nyström scheme (SB3A, m = 4) from Boost.Odeint
// (odeint::symplectic_rkn_sb3a_m4_mclachlan) [McLachlan 1995, SIAM J. Sci. Comput. 16:151-168].
//
//   q̇ = v,  v̇ = a(q, v̄)   separable form; velocity-dependent forces are evaluated with v̄ = v_n, the
//                          velocity at the start of the step (exactly symplectic and 4th order only for
//                          conservative systems; first order in the damping otherwise).
//   D_{n+1} = D_n + h/2 (P_n + P_{n+1})
//
// Requires q̇ = v (equal sizes of q and v).
#pragma once

#include "integrators/integrator.h"

namespace impactlab {

class OdeintSymplecticRkn final : public Integrator {
 public:
  std::string name() const override { return "mclachlan4"; }
  IntegratorTraits traits() const override;

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
};

}  // namespace impactlab
