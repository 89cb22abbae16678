// FitDampingCoefficient: the viscous damping coefficient of a power-law contact that reproduces measured
// restitutions e(v₀), found by simulating the contact (CVODE BDF at tight tolerance, root-located contact
// start and end) inside a Ceres NumericDiffCostFunction (central differences).
//
//   Kuwabara–Kono: m δ̈ + γ δ^(1/2) δ̇ + k δ^(3/2) = 0, fit γ [N s m^-1.5]    [Kuwabara & Kono 1987; docs/theory.md §3]
//     small-damping asymptote 1 − e ≈ 1.1534 (γ/k)(k/m)^(2/5) v₀^(1/5)   [docs/theory.md §3, §10 row 15]
//   Tsuji:         m δ̈ + α √(m k) δ^((p−1)/2) δ̇ + k δ^p = 0, fit α [1]
//     closed form α = √(2(p+1)) ξ_L(e), exact for every v₀                [Seed000 eq. 25; docs/theory.md §3, §5]
//
//   r_i(c) = e_sim(c; v₀,i) − e_i,   e_sim = −δ̇(t_end)/δ̇(t_start) of the first contact (0 if no rebound).
//
// The force is never clipped at zero [docs/theory.md §12.1]. With one observation the fit is an exactly
// determined root solve (standard error n/a). Data columns: v0 [m/s], e.
#pragma once

#include "calibration/calibration_data.h"
#include "calibration/fit_result.h"

namespace impactlab::calibration {

enum class ViscousDampingModel { kKuwabaraKono, kTsuji };

struct PowerLawImpact {
  double mass = 1.0;         ///< m [kg] > 0 (reduced mass for two bodies)
  double k = 1.0;            ///< k [N m^-p] > 0 (Hertz: K_H = 4/3 E* √R*)
  double p = 1.5;            ///< exponent ≥ 1; Kuwabara–Kono requires the Hertz value 1.5
  double cvode_rtol = 1e-12; ///< CVODE relative tolerance
  void Validate() const;
};

/// Restitution of one simulated impact at speed v₀ [m/s] with damping coefficient `coefficient` (γ or α).
double SimulatedRestitution(const PowerLawImpact& impact, ViscousDampingModel model, double coefficient, double v0);
/// 1.1534 (γ/k)(k/m)^(2/5) v₀^(1/5): the small-damping Kuwabara–Kono loss 1 − e.
double KuwabaraKonoAsymptoticLoss(const PowerLawImpact& impact, double gamma, double v0);
/// γ of the small-damping asymptote for a target e.
double KuwabaraKonoAsymptoticGamma(const PowerLawImpact& impact, double e, double v0);

struct DampingFitOptions {
  PowerLawImpact impact;
  ViscousDampingModel model = ViscousDampingModel::kKuwabaraKono;
  double initial = 0.0;  ///< start value; 0: KK asymptote (Kuwabara–Kono) or 2(1 − ē) (Tsuji)
  void Validate() const;
};

struct SpeedRestitutionObservation {
  double v0;
  double e;
};

FitResult FitDampingCoefficient(const std::vector<SpeedRestitutionObservation>& data, const DampingFitOptions& options);
/// Reads columns v0 and e.
std::vector<SpeedRestitutionObservation> SpeedRestitutionObservations(const CalibrationData& data);

}  // namespace impactlab::calibration
