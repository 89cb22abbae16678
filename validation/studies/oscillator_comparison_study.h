// Oscillator comparison study (foundation): every baseline integrator on the same 1D contact oscillator.
//  - undamped Hertz impact (m = k = v0 = 1): energy error, restitution error, cost, side by side;
//  - linear spring–dashpot restitution vs e = exp(−ξπ/√(1−ξ²)) with CVODE [docs/theory.md §3];
//  - generalized Tsuji calibration round trip α = √(2(p+1)) ξ_L(e) for p ∈ {1, 1.5, 2, 3} [Seed000 eq. 25],
//    and the refutation of seed 001 summary's α = p/(2(p+1)) ξ_L (docs/calibration.md).
// Split as compute (typed results) → claims (pure) → render (tables, CSV, figure).
// Input (validate --set oscillator_comparison.KEY=VALUE): calibration_e_target (default 0.5).
#pragma once

#include <string>
#include <vector>

#include "report/study.h"

namespace impactlab {

struct OscillatorComparisonResults {
  struct HertzRun {
    std::string integrator;
    bool applicable = true;  ///< false: the scheme refuses the model (e.g. EFDA needs planar bodies)
    double restitution = 0.0, energy_error_max = 0.0, balance_residual_max = 0.0, wall_time_s = 0.0;
    long rhs_evaluations = 0;
  };
  struct Calibration {
    double p = 0.0;
    double alpha_seed000 = 0.0, e_seed000 = 0.0;  ///< α = √(2(p+1)) ξ_L(e) and the simulated e
    double alpha_seed001 = 0.0, e_seed001 = 0.0;  ///< α = p/(2(p+1)) ξ_L(e) (seed 001 summary)
  };
  double hertz_dt = 0.0;
  std::vector<HertzRun> hertz;
  double linear_e_target = 0.5, linear_dashpot_e = 0.0;
  double calibration_e_target = 0.5;
  std::vector<Calibration> calibration;
};

OscillatorComparisonResults ComputeOscillatorComparison(const StudyContext& context);
/// The claims, a pure function of the results.
std::vector<Claim> OscillatorComparisonClaims(const OscillatorComparisonResults& results);

class OscillatorComparisonStudy final : public Study {
 public:
  std::string name() const override { return "oscillator_comparison"; }
  std::string title() const override { return "Baseline integrators on the 1D contact oscillator"; }
  std::string source() const override { return "Seed001; Seed000 eqs. 23, 25; docs/theory.md §3, §12"; }
  ParameterSet Inputs() const override;
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
