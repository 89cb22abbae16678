// Seed000 Table 6 / Fig. 6: compliant to impulsive convergence as K_n grows.
// Source: Seed000 §6 Table 6, Fig. 6; docs/theory.md §10 row 9. Runs model "ellipsoid_wall" with velocity_verlet, rk4 and cvode_bdf (docs/ellipsoid-wall.md).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed000Table6ConvergenceStudy final : public Study {
 public:
  std::string name() const override { return "seed000_table6_convergence"; }
  std::string title() const override { return "Seed000 Table 6 / Fig. 6: compliant to impulsive convergence as K_n grows"; }
  std::string source() const override { return "Seed000 §6 Table 6, Fig. 6; docs/theory.md §10 row 9"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
