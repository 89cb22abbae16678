// EFDA — Energy Frictional Dissipating Algorithm for planar rigid bodies with penalty contact and Coulomb
// stick/slip, after Bravo & Pérez-Aparicio (Seed003, eqs. 5–18), in the reading documented in docs/efda.md.
//
// Time-discrete equations (midpoint / Simo–Tarnow frame, Seed003 eq. 5, docs/theory.md §7), per step n → n+1:
//   Δq = Δt v_{n+½},   M Δv = Δt [ f_ext + Σ_contacts f_c ],   v_{n+½} = (v_n + v_{n+1})/2,
//   f_c = −F_N ḡ_N − F_T G_T                                  (generalized, on the two bodies of the contact)
// Normal (Seed003 eq. 8 + ψ₁ "updating force" read as the eq.-17 dashpot, ψ₂ = 0):
//   F_N = [V_N(δ_{n+1}) − V_N(δ_n)] / (δ_{n+1} − δ_n) + c_N (δ_{n+1} − δ_n)/Δt,   V_N = ½ K_N ⟨δ⟩²,
//   ḡ_N = discrete gradient of the gap: ḡ_N·Δq = δ_{n+1} − δ_n exactly. ḡ_N = ∇δ(q_{n+½}) + r d, with the
//   Gonzalez correction r d restricted to momentum-neutral directions (C d = 0, C = rigid-motion generators
//   of the pair at q_{n+½}) so that linear and angular momentum are conserved exactly.
// Tangential (spring g_T in MechanicalState::z), G_T = relative tangential displacement direction of the
// common contact point at q_{n+½}, Δs = G_T·Δq:
//   stick: g_{n+1} = g_n + Δs,  F_T = K_T (g_n + g_{n+1})/2 + c_T Δs/Δt       if |F_T| ≤ μ |F_N|
//   slip:  F_T = Ψ μ |F_N| (Seed003 eq. 7, Ψ = sgn of the stick trial), and the spring returns onto the
//          friction cone, K_T g_{n+1} = F_T (so the stored spring force never exceeds μ|F_N|).
// Per contact and per step this gives exactly (to round-off, once the fixed point has converged):
//   Δ(K + V_N + V_T) = −c_N Δδ²/Δt − c_T Δs²/Δt (stick) − W_slip (slip),  W_slip = F_T Δs − ΔV_T,
// i.e. energy conservation in normal contact and stick (ξ = 0), dissipation = Coulomb slip work in slip.
// When a contact opens (δ_{n+1} ≤ 0) its spring is reset to 0 and the released ½ K_T g² is booked as
// dissipated ("release"), so the ledger E + D stays exact. Gravity is a linear potential (exact).
// A planar model may carry a tangential law of the shared library instead of the spring (Cundall–Strack, the
// Mindlin laws; planar/planar_tangential_law.h): stick/slip is then the law's return mapping of the step, and
// E_{n+1} − E_n = −(dashpot work + W_f) + W_g as on the sphere contacts below (W_f, W_g booked in z).
//
// Solver: fixed-point iteration on q_{n+1} (converges for (ω Δt)²/4 < 1; penalty contact needs ω Δt ≪ 1
// anyway); no Jacobian. Non-convergence → kRetrySmallerStep.
// EFDA advances the springs z itself (they are part of its discrete equations) and therefore does not call
// MechanicalSystem::UpdateHistory, which would apply the model's explicit return mapping a second time.
// The contact forces are planar/planar_discrete_contacts.h (shared with the Newton-solved midpoint schemes).
//
// Beyond the plane (the same discrete equations through the contact seam, the same fixed-point solver):
//   DiscreteContactSystem models (sphere_wall, sphere_pair: Hertz ⊕ damping ⊕ any tangential law): the gap
//     quotient form of contact/contact_law.h; stick/slip is the tangential law's return mapping of the step,
//     its slip work W_f and the law's own generated energy W_g booked per step, so that exactly
//     E_{n+1} − E_n = −(damping work + W_f) + W_g;
//   pair-potential models (frictionless): the Simo–Tarnow gap quotients (integrators/contact_term_discrete_force.h);
//   other constant-mass models (the ECC ellipsoid): Gonzalez's discrete gradient of V.
#pragma once

#include <vector>

#include "integrators/integrator.h"
#include "integrators/midpoint_family_integrator.h"  // DiscreteForceEvaluation
#include "planar/planar_discrete_contacts.h"

namespace impactlab {

/// Energy bookkeeping of the last accepted EFDA step (for tests and studies).
using EfdaStepReport = PlanarStepReport;

class Efda final : public Integrator {
 public:
  struct Options {
    int max_iterations = 100;
    /// Converged when every |Δq_i| change ≤ position_tolerance · max(1, |q_i|) between iterations.
    double position_tolerance = 4e-15;
    void Validate() const;
  };

  Efda() : Efda(Options{}) {}
  explicit Efda(Options options);

  std::string name() const override { return "efda"; }
  IntegratorTraits traits() const override;
  const EfdaStepReport& last_step() const { return last_; }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  StepResult DoPlanarStep(const MechanicalSystem& system, MechanicalState& state, double h);
  /// The fixed point q ← q_n + h/2 (v_n + v_{n+1}(q)), v_{n+1} = v_n − h M⁻¹ F̄(q_n, q) for a force callback.
  template <class Force>
  bool FixedPoint(const MechanicalState& before, const Eigen::VectorXd& minv, double h, Eigen::VectorXd& q1,
                  Force&& force, int& iterations);

  /// Storage kept between steps of the constant-mass path (no heap allocation inside a step once sized; a
  /// cache, results never depend on it).
  struct Workspace {
    Eigen::VectorXd a0, q1, mass, minv, f_ext, f, q_next;
    DiscreteForceEvaluation eval;
    DiscreteContactStep contact_step;  ///< the DiscreteContactSystem path's evaluation
  };
  /// The planar path's vectors (DoPlanarStep), kept between steps.
  struct PlanarWorkspace {
    Eigen::VectorXd minv, q0, v0, z0, q1, f, z1, v1, q_next, f_ext;
  };
  Options options_;
  Workspace work_;
  PlanarWorkspace planar_;
  EfdaStepReport last_;
  std::vector<int> slots_;
};

}  // namespace impactlab
