// Seed000 Table 7 / Fig. 7: e_E vs e_cn at four impact angles.
// Source: Seed000 §6 Table 7, Fig. 7; docs/theory.md §10 rows 7, 8. Runs model "ellipsoid_wall" with velocity_verlet, rk4 and cvode_bdf (docs/ellipsoid-wall.md).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed000Table7AnglesStudy final : public Study {
 public:
  std::string name() const override { return "seed000_table7_angles"; }
  std::string title() const override { return "Seed000 Table 7 / Fig. 7: e_E vs e_cn at four impact angles"; }
  std::string source() const override { return "Seed000 §6 Table 7, Fig. 7; docs/theory.md §10 rows 7, 8"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
