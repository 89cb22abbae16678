// Seed000 Tables 4-5 / Fig. 5: aspect-ratio and impact-angle sweeps.
// Source: Seed000 §6 Tables 4, 5, Fig. 5; docs/theory.md §10 row 6, §12.7. Runs model "ellipsoid_wall" with velocity_verlet, rk4 and cvode_bdf (docs/ellipsoid-wall.md).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed000Table45SweepsStudy final : public Study {
 public:
  std::string name() const override { return "seed000_table45_sweeps"; }
  std::string title() const override { return "Seed000 Tables 4-5 / Fig. 5: aspect-ratio and impact-angle sweeps"; }
  std::string source() const override { return "Seed000 §6 Tables 4, 5, Fig. 5; docs/theory.md §10 row 6, §12.7"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
