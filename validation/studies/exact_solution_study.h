// Exact-solution study [Seed001; docs/theory.md §4, §5, §10 rows 11-14; docs/exact-solution.md]:
//  - CVODE (rtol 1e-12) vs Feng's closed forms: e (≤ 1e-9 rel), δ_max (≤ 1e-9), t_c (≤ 1e-8) for
//    p ∈ {1, 1.5, 2, 2.5, 3} over several v₀ and e (row 11);
//  - docs/theory.md §10 rows 12 and 13 (closed forms vs the printed values);
//  - t_c ∝ v₀^(−(p−1)/(p+1)) measured with CVODE (least-squares slope);
//  - the "exact" stepper trajectory vs CVODE (≤ 1e-8 of δ_max);
//  - work–precision of every registered integrator on one damped Hertz impact (error vs RHS evaluations and
//    wall time, PNG);
//  - velocity-Verlet energy-growth threshold by bisection on Δt for v₀ ∈ [1e-3, 1e2], p ∈ {1, 1.5, 2, 3}:
//    measured vs predicted scaling Δt_crit ∝ v₀^(−(p−1)/(p+1)) (row 14).
#pragma once

#include "report/study.h"

namespace impactlab {

class ExactSolutionStudy final : public Study {
 public:
  std::string name() const override { return "exact_solution"; }
  std::string title() const override { return "Feng's exact power-law Tsuji solution vs CVODE and every integrator"; }
  std::string source() const override { return "Seed001; docs/theory.md §4, §5, §10 rows 11-14"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
