// Seed003 carom study (EFDA, Bravo & Pérez-Aparicio 2011, §6.1; docs/theory.md §8):
//  - the carom (ellipse in a 1 m box, μ = tan 15°) with EFDA, velocity_verlet and cvode_bdf on the same
//    penalty law, and the rigid Routh reference chained impact by impact: trajectory, velocities, spin and
//    energy vs time (the paper's Fig. 1 panels), and the table of the first 10 impacts;
//  - EFDA first-impact post-impact velocities vs the rigid reference for several K_N (ω_N Δt fixed): the
//    compliant-vs-rigid error must shrink as K_N grows;
//  - a slip-reversal impact (gravity on) vs K_T/K_N: raw, gravity-corrected and gravity-free comparisons with Routh;
//  - 20 isolated ellipses: linear/angular momentum drift and per-step energy balance (ΔE = −slip work).
// Split as compute + render per section (filling CaromResults) → claims (CaromClaims, pure).
#pragma once

#include <vector>

#include "planar/routh_impulse.h"
#include "report/study.h"

namespace impactlab {

/// The numbers the carom study's claims are made of.
struct CaromResults {
  RouthImpactResult first;              ///< rigid (Routh) first floor impact
  double efda_first_local = 0.0;        ///< EFDA first impact norm(v+ − v+_rigid) at K_N = 1e6 [m/s]
  double efda_balance = 0.0;            ///< carom max abs(E + D − E0)/E0, EFDA
  std::vector<double> kn_errors;        ///< first-impact velocity error per K_N (ascending)
  double efda_observed_order = 0.0;     ///< observed order through the first impact (last halving)
  std::vector<double> reversal_errors;  ///< slip-reversal impact error for K_T/K_N = 1, 10, 100
  /// The same with gravity's impulse over the contact removed (|v⁺ + g t_c ŷ − v⁺_Routh|), and with the contact
  /// re-run from the same pre-impact state at g = 0, for K_T/K_N = 1, 10, 100.
  std::vector<double> reversal_errors_gravity_corrected, reversal_errors_gravity_free;
  /// Least-squares slopes of ln(error) over ln(K_T/K_N) of the three series above.
  double reversal_exponent = 0.0, reversal_exponent_gravity_corrected = 0.0, reversal_exponent_gravity_free = 0.0;
  double momentum_drift = 0.0, step_energy_isolated = 0.0, step_energy_walls = 0.0;
};

/// The claims, a pure function of the results.
std::vector<Claim> CaromClaims(const CaromResults& results);

class Seed003CaromStudy final : public Study {
 public:
  std::string name() const override { return "seed003_carom"; }
  std::string title() const override { return "EFDA: carom of a rigid ellipse, stiffness convergence, multi-body invariants"; }
  std::string source() const override { return "Seed003 §3-§6.1; docs/theory.md §8"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
