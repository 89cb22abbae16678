// EFDA — Energy Frictional Dissipating Algorithm for planar rigid bodies with penalty contact and Coulomb
// stick/slip, after Bravo & Pérez-Aparicio (Seed003, eqs. 5–18), in the reading documented in docs/efda.md.
//
// Time-discrete equations (midpoint / Simo–Tarnow frame, Seed003 eq. 5, THEORY.md §7), per step n → n+1:
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
//   slip:  F_T = Ψ μ |F_N| (Seed003 eq. 7, Ψ = sgn of the stick trial), and the spring takes the value whose
//          midpoint force is the slip force: K_T (g_n + g_{n+1})/2 = F_T.
// Per contact and per step this gives exactly (to round-off, once the fixed point has converged):
//   Δ(K + V_N + V_T) = −c_N Δδ²/Δt − c_T Δs²/Δt (stick) − W_slip (slip),  W_slip = F_T (Δs − Δg_T),
// i.e. energy conservation in normal contact and stick (ξ = 0), dissipation = Coulomb slip work in slip.
// When a contact opens (δ_{n+1} ≤ 0) its spring is reset to 0 and the released ½ K_T g² is booked as
// dissipated ("release"), so the ledger E + D stays exact. Gravity is a linear potential (exact).
//
// Solver: fixed-point iteration on q_{n+1} (converges for (ω Δt)²/4 < 1; penalty contact needs ω Δt ≪ 1
// anyway); no Jacobian. Non-convergence → kRetrySmallerStep.
// EFDA advances the springs z itself (they are part of its discrete equations) and therefore does not call
// MechanicalSystem::UpdateHistory, which would apply the model's explicit return mapping a second time.
// The integrator needs the system to implement PlanarContactSystem (lib/planar/planar_contact_system.h).
#pragma once

#include <vector>

#include "integrators/integrator.h"

namespace impactlab {

/// Energy bookkeeping of the last accepted EFDA step (for tests and studies).
struct EfdaStepReport {
  double normal_dashpot_work = 0.0;      ///< Σ c_N Δδ²/Δt [J]
  double tangential_dashpot_work = 0.0;  ///< Σ c_T Δs²/Δt over sticking contacts [J]
  double slip_work = 0.0;                ///< Σ F_T (Δs − Δg_T) over slipping contacts [J] (Coulomb work)
  double release_energy = 0.0;           ///< Σ ½ K_T g² of springs dropped at contact opening [J]
  int active_contacts = 0;
  int sticking_contacts = 0;
  int slipping_contacts = 0;
  /// Contacts whose momentum-neutral Gonzalez correction was skipped (near-rigid relative motion, d·Δq ≈ 0);
  /// their energy identity then holds only to the skipped residual.
  int correction_skipped = 0;
  int iterations = 0;
  double total() const { return normal_dashpot_work + tangential_dashpot_work + slip_work + release_energy; }
};

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

  Options options_;
  EfdaStepReport last_;
  std::vector<int> slots_;
};

}  // namespace impactlab
