// Calibration study: the Ceres fits of validation/calibration/ on synthetic data with known truth.
//  - ellipsoid e_cn from e_E(θ) [Seed000 §7 hypothesis]: a/b = 1.67, 7 angles, 1 % noise, recovered within
//    2 standard errors; Monte Carlo coverage of ±2 s.e. against Student's t(N−1) (checks the standard errors);
//    m_n*(30°) = 0.648 m [Seed000 eq. 14];
//  - sphere μ from (γ, e_t, β), rigid gross slip / stick [docs/theory.md §6], same two checks;
//  - Kuwabara–Kono γ by CVODE simulation hits the target e; its ratio to the small-damping asymptote
//    1 − e ≈ 1.1534 (γ/k)(k/m)^(2/5) v₀^(1/5) tends to 1 [docs/theory.md §3, §10 row 15];
//  - Tsuji α by simulation equals the closed form √(2(p+1)) ξ_L(e) [Seed000 eq. 25].
#pragma once

#include "report/study.h"

namespace impactlab {

class CalibrationStudy final : public Study {
 public:
  std::string name() const override { return "calibration"; }
  std::string title() const override { return "Ceres calibration round trips (e_cn, mu, Kuwabara-Kono gamma, Tsuji alpha)"; }
  std::string source() const override { return "Seed000 §7, eq. 14, eq. 25; Seed002; docs/theory.md §3, §4, §6, §10"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
