// Seed000 Table 3 / Fig. 4: e_cn error vs stiffness and delta_max/rho.
// Source: Seed000 §6.5 Table 3, Fig. 4; docs/theory.md §10 row 5, §12.10. Runs model "ellipsoid_wall" with velocity_verlet, rk4 and cvode_bdf (docs/ellipsoid-wall.md).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed000Table3StiffnessStudy final : public Study {
 public:
  std::string name() const override { return "seed000_table3_stiffness"; }
  std::string title() const override { return "Seed000 Table 3 / Fig. 4: e_cn error vs stiffness and delta_max/rho"; }
  std::string source() const override { return "Seed000 §6.5 Table 3, Fig. 4; docs/theory.md §10 row 5, §12.10"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
