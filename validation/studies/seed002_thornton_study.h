// Seed 002, Thornton et al. 2013 parameter set (Table 2, Figs. 2–4): tangential force–displacement loops of
// the incremental (Oda–Iwashita vs Thornton rescaled) and integral (Tsuji vs Di Renzo–Di Maio scaled)
// laws; the near-normal anomaly of the Tsuji integral model (β ≈ −1.05 and ≈ 3 % gain of slip kinetic
// energy at ν = 0.1, γ = 178°, μ = 0.4) and its absence with the scaled models, with velocity Verlet (as
// the paper) and RK4 at dt and dt/4 (reference) to separate model from integration; the energy audit
// (seed: total energy constant to 1e−7 for e_n = 1) with impactlab's exact ledger [Seed002 §3; docs/theory.md §6].
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed002ThorntonStudy final : public Study {
 public:
  std::string name() const override { return "seed002_thornton"; }
  std::string title() const override { return "Seed 002: Hertz-Mindlin loops and the near-normal anomaly"; }
  std::string source() const override { return "Seed002 §3, Figs. 2-4, Table 2; docs/theory.md §6, §10 rows 17-19"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
