// LiePoissonMidpoint: the energy–momentum conserving midpoint scheme for the free rigid body (issue 15;
// docs/rotation.md §3). Body angular momentum Π = I Ω, attitude R (unit quaternion q, R = R(q)):
//
//   Π_{n+½} = Π_n + (h/2) Π_{n+½} × I⁻¹Π_{n+½}         (implicit midpoint rule on the Lie–Poisson form of
//                                                       Euler's equations; Newton, integrators/newton_solver.h)
//   Ω_{n+½} = I⁻¹ Π_{n+½}
//   R_{n+1} = R_n cay(h Ω̂_{n+½}),   cay(A) = (I − A/2)⁻¹ (I + A/2)
//             i.e. q_{n+1} = q_n ⊗ p,  p = (1, h Ω_{n+½}/2) / √(1 + |h Ω_{n+½}/2|²)
//   Π_{n+1} = cay(h Ω̂_{n+½})ᵀ Π_n   (= 2 Π_{n+½} − Π_n: the two are the same equation,
//                                      (I + hΩ̂/2) Π_{n+1} = (I − hΩ̂/2) Π_n)
//
// Conserved exactly (to round-off and the Newton tolerance):
//   • the spatial angular momentum L = R Π: L_{n+1} = R_n cay cayᵀ Π_n = L_n (cay(A) is orthogonal for skew A);
//   • the kinetic energy E = ½ Πᵀ I⁻¹ Π and |Π|²: both are quadratic invariants of Euler's equations and the
//     implicit midpoint rule (the one-stage Gauss method) conserves every quadratic invariant [Hairer, Lubich &
//     Wanner 2006, §IV.2.1; the rigid body in §VII.5]:
//     E_{n+1} − E_n = (Π_{n+1} − Π_n)ᵀ I⁻¹ Π_{n+½} = h (Π_{n+½} × Ω_{n+½})·Ω_{n+½} = 0.
// Second order (midpoint rule; cay(hΩ̂) = exp(hΩ̂) + O(h³)). Not symplectic on T*SO(3) (the Lie–Poisson
// midpoint is "almost Poisson": Austin, Krishnaprasad & Wang 1993). The Cayley reconstruction of the attitude
// is the one of the midpoint Lie algorithm family of Simo & Wong (1991) (there with the exponential map).
//
// Supports a RigidRotationSystem (system/rigid_rotation_system.h: the torque-free top, the step above) and a
// RigidBodySystem (system/rigid_body_system.h: a body that translates and carries a contact potential and
// dampers), for which the step adds the translation and the loads through a Gonzalez discrete gradient in the
// step's Cayley coordinate and books the damper work exactly, and a tangential (friction) load through the
// model's discrete slip map with the tangential law's books, its history committed with the accepted step
// (integrators/rigid_body_contact_step.h; docs/rotation.md §6, §7). Any other model is refused with InvalidParameter naming what is missing.
#pragma once

#include <string_view>

#include "integrators/integrator.h"
#include "integrators/newton_solver.h"
#include "integrators/rigid_body_contact_step.h"

namespace impactlab {

class LiePoissonMidpoint final : public Integrator {
 public:
  explicit LiePoissonMidpoint(NewtonOptions newton = {});
  static constexpr std::string_view kName = "lie_poisson_midpoint";
  std::string name() const override { return std::string(kName); }
  IntegratorTraits traits() const override;

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  NewtonOptions newton_;
  RigidBodyStepWorkspace work_;  // kept between steps: a step allocates nothing once sized
};

}  // namespace impactlab
