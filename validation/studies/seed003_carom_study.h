// Seed003 carom study (EFDA, Bravo & Pérez-Aparicio 2011, §6.1; THEORY.md §8):
//  - the carom (ellipse in a 1 m box, μ = tan 15°) with EFDA, velocity_verlet and cvode_bdf on the same
//    penalty law, and the rigid Routh reference chained impact by impact: trajectory, velocities, spin and
//    energy vs time (the paper's Fig. 1 panels), and the table of the first 10 impacts;
//  - EFDA first-impact post-impact velocities vs the rigid reference for several K_N (ω_N Δt fixed): the
//    compliant-vs-rigid error must shrink as K_N grows;
//  - 20 isolated ellipses: linear/angular momentum drift and per-step energy balance (ΔE = −slip work).
#pragma once

#include "report/study.h"

namespace impactlab {

class Seed003CaromStudy final : public Study {
 public:
  std::string name() const override { return "seed003_carom"; }
  std::string title() const override { return "EFDA: carom of a rigid ellipse, stiffness convergence, multi-body invariants"; }
  std::string source() const override { return "Seed003 §3-§6.1; THEORY.md §8"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
