// Conservation study (issue 4): every implicit baseline and conserving scheme, plus velocity Verlet, at the
// same dt on
//  1. the undamped Hertz impact (contact oscillator, m = k = v0 = 1, onset inside a step), dt from t_c/1000
//     to 10× the explicit critical step 2/ω_max: max |E − E0|/E0, restitution error |e − 1|, Newton
//     iterations per step;
//  2. the Tsuji-damped Hertz impact (e = 0.5) with the Φ-form: max |E + D − E0|/E0, e error and its order;
//  3. Newton's cradle with 100 Hertz beads and a 2D cloud of 50 Hertz disks (isolated systems): energy
//     error and linear / angular momentum drift;
//  4. observed order on the harmonic oscillator (least-squares slope of the global error), and in contact
//     (undamped Hertz impact, position after the rebound against CVODE at rtol 1e-12).
// Claims [docs/theory.md §7, §9; Simo & Tarnow 1992; Gonzalez 1996]: Simo–Tarnow and the discrete gradients
// keep the energy to 1e-12; Φ-form balance residual ≤ 1e-12; momentum ≤ 1e-12 for Simo–Tarnow and the
// invariant DG; order 2 within ±0.15. Writes CSV + Markdown tables and the figure energy_error_vs_dt.png.
#pragma once

#include "report/study.h"

namespace impactlab {

class ConservationStudy final : public Study {
 public:
  std::string name() const override { return "conservation"; }
  std::string title() const override { return "Energy-momentum conserving schemes vs implicit baselines"; }
  std::string source() const override { return "docs/theory.md §7, §9; Seed003 eqs. 5, 8; Simo & Tarnow 1992; Gonzalez 1996"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
