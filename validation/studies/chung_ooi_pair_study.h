// Chung & Ooi (2011) Tests 7 and 8 with the two-sphere model (models/sphere_pair_impact.h; parameters from
// Chung & Ooi 2011, Table 1, as summarised in docs/theory.md Appendix A):
//   Test 7: two identical spheres (Al alloy; copper), R = 0.1 m, ±0.2 m/s along the line of centres, e = 0.5,
//           μ = 0.4, both spinning with the same ω₀ about e_y (same sense: the contact points rub with
//           v_s⁻ = −2Rω₀); sweep ω₀; outputs ω₁⁺, ω₂⁺, v₁ₓ⁺, v₂ₓ⁺. Plus a frictionless e = 1 run per material
//           against the Hertz closed forms with R*, E*, m*.
//   Test 8 (case B): R₂ = 5R₁, ρ₂ = 1000ρ₁ (both of Al alloy; both of nylon), sphere 1 (R₁ = 0.1 m) at
//           0.2 m/s onto sphere 2 at rest, sphere 1 spinning ω₀ (sweep), sphere 2 not; outputs ω₁⁺, v₁ₓ⁺,
//           ω₂⁺, v₂ₓ⁺.
// Every tangential law of the sphere_wall registry; compared with rigid-body impulse theory
// (references/rigid_sphere_pair_impact_theory.h) at the measured e_n.
#pragma once

#include "report/study.h"

namespace impactlab {

class ChungOoiPairStudy final : public Study {
 public:
  std::string name() const override { return "chung_ooi_pair"; }
  std::string title() const override { return "Chung & Ooi (2011) benchmark Tests 7-8, two spheres"; }
  std::string source() const override {
    return "Chung & Ooi 2011 (Granular Matter 13:643) Tests 7-8; reference/data/chung_ooi_parameters.md";
  }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
