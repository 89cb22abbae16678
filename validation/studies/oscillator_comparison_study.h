// Oscillator comparison study (foundation): every baseline integrator on the same 1D contact oscillator.
//  - undamped Hertz impact (m = k = v0 = 1): energy error, restitution error, cost, side by side;
//  - linear spring–dashpot restitution vs e = exp(−ξπ/√(1−ξ²)) with CVODE [THEORY.md §3];
//  - generalized Tsuji calibration round trip α = √(2(p+1)) ξ_L(e) for p ∈ {1, 1.5, 2, 3} [Seed000 eq. 25],
//    and the refutation of seed 001 summary's α = p/(2(p+1)) ξ_L (docs/calibration.md).
#pragma once

#include "report/study.h"

namespace impactlab {

class OscillatorComparisonStudy final : public Study {
 public:
  std::string name() const override { return "oscillator_comparison"; }
  std::string title() const override { return "Baseline integrators on the 1D contact oscillator"; }
  std::string source() const override { return "Seed001; Seed000 eqs. 23, 25; THEORY.md §3, §12"; }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
