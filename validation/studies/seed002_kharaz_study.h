// Seed 002 §4 (Fig. 5): the Kharaz et al. 2001 oblique impact (Al₂O₃ sphere on glass, Table 3) with every
// tangential law: e_t and β against ψ = 7/2 (1+e_n) μ |cot γ| together with the rigid-body gross-sliding /
// sticking theory (all models must agree with it in gross sliding), and every model against the measured
// data of Kharaz et al. (e_t, |ω| after, rebound angle; validation/data/kharaz2001.json) with the RMS
// deviation per model. e_n = 0.98 (Chung & Ooi's value for this pair; Seed002 does not state its e_n).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed002KharazStudy final : public Study {
 public:
  std::string name() const override { return "seed002_kharaz"; }
  std::string title() const override { return "Seed 002: Kharaz et al. oblique impact, all tangential models"; }
  std::string source() const override { return "Seed002 §4, Fig. 5, Table 3; Kharaz, Gorham & Salman 2001; docs/theory.md §6"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
