// Chung & Ooi (2011) DEM benchmark tests at particle-impact level, sphere–wall form
// (parameters: validation/data/chung_ooi_parameters.md, copied from the shared reference):
//   Tests 1–3: normal impacts vs Hertz closed forms (δ_max, F_max, t_c within 0.5 %) and e_out = e_in;
//   Tests 4–6: oblique impacts / initial spin vs rigid-body theory (gross sliding within 1 %), tabulated and
//              plotted for every tangential law.
// Test 1 (two identical spheres, ±10 m/s) is run as the equivalent one-body problem: radius R* = R/2,
// mass m* = m/2 (density 4ρ), wall of the same material (E* = E/(2(1−ν²))), speed 20 m/s. Tests 2–6 use a
// rigid plane, E* = E/(1−ν²) of the sphere. Tests 7–8 (two spinning spheres) run on the
// two-sphere model in validation/studies/chung_ooi_pair_study.h.
#pragma once

#include "report/study.h"

namespace impactlab {

class ChungOoiStudy final : public Study {
 public:
  std::string name() const override { return "chung_ooi"; }
  std::string title() const override { return "Chung & Ooi (2011) benchmark Tests 1-6, sphere-wall form"; }
  std::string source() const override { return "Chung & Ooi 2011 (Granular Matter 13:643); reference/data/chung_ooi_parameters.md"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
