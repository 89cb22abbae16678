// Seed000 Table 1 / Fig. 2: aligned impact (theta = 0) is exactly controlled.
// Source: Seed000 §6 Table 1, Fig. 2; docs/theory.md §10 row 3. Runs model "ellipsoid_wall" with velocity_verlet, rk4 and cvode_bdf (docs/ellipsoid-wall.md).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed000Table1AlignedStudy final : public Study {
 public:
  std::string name() const override { return "seed000_table1_aligned"; }
  std::string title() const override { return "Seed000 Table 1 / Fig. 2: aligned impact (theta = 0) is exactly controlled"; }
  std::string source() const override { return "Seed000 §6 Table 1, Fig. 2; docs/theory.md §10 row 3"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
