// Seed000 Table 2 / Fig. 3: oblique impact theta = 30 deg, e_cn = 0.5, breathing mass.
// Source: Seed000 §6 Table 2, Fig. 3, eq. 14; docs/theory.md §10 rows 1, 4. Runs model "ellipsoid_wall" with velocity_verlet, rk4 and cvode_bdf (docs/ellipsoid-wall.md).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed000Table2ObliqueStudy final : public Study {
 public:
  std::string name() const override { return "seed000_table2_oblique"; }
  std::string title() const override { return "Seed000 Table 2 / Fig. 3: oblique impact theta = 30 deg, e_cn = 0.5, breathing mass"; }
  std::string source() const override { return "Seed000 §6 Table 2, Fig. 3, eq. 14; docs/theory.md §10 rows 1, 4"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
