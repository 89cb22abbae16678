// Seed000 Fig. 1: energy partition and relative energy error of the undamped oblique impact.
// Source: Seed000 §6 eqs. 48-49, Fig. 1; docs/theory.md §10 row 2, §12.3. Runs model "ellipsoid_wall" with velocity_verlet, rk4 and cvode_bdf (docs/ellipsoid-wall.md).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed000EnergyPartitionStudy final : public Study {
 public:
  std::string name() const override { return "seed000_energy_partition"; }
  std::string title() const override { return "Seed000 Fig. 1: energy partition and relative energy error of the undamped oblique impact"; }
  std::string source() const override { return "Seed000 §6 eqs. 48-49, Fig. 1; docs/theory.md §10 row 2, §12.3"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
