// TwoBodyImpact: two spheres (m₁, R₁) and (m₂, R₂) colliding head-on along a line, 1D [docs/theory.md §1, §5].
//
//   δ = R₁ + R₂ − (x₂ − x₁),   m₁ ẍ₁ = −F_n,  m₂ ẍ₂ = +F_n,   F_n = W'(δ) + C(δ) δ̇ (δ > 0, not clipped)
//
// Equivalent to the contact oscillator with the reduced mass m* = m₁m₂/(m₁+m₂) and approach speed
// v₁ − v₂, but keeps both bodies so that momentum conservation can be measured. Initial state: body 1 at
// x₁ = −gap (so the spheres touch at gap = 0), body 2 at R₁ + R₂; velocities v₁ > v₂ (approaching).
#pragma once

#include "models/particle_assembly.h"

namespace impactlab {

struct TwoBodyImpactParameters {
  double mass1 = 1.0, mass2 = 1.0;      ///< [kg] > 0
  double radius1 = 1.0, radius2 = 1.0;  ///< [m] > 0
  double velocity1 = 0.5, velocity2 = -0.5;  ///< [m/s], v₁ > v₂
  double initial_gap = 0.0;             ///< [m] ≥ 0
  void Validate() const;
};

class TwoBodyImpact final : public ParticleAssembly {
 public:
  TwoBodyImpact(TwoBodyImpactParameters parameters, DampedNormalLaw law);
  std::string name() const override { return "two_body"; }
  MechanicalState InitialState() const override;
  const TwoBodyImpactParameters& parameters() const { return p_; }

 private:
  TwoBodyImpactParameters p_;
};

}  // namespace impactlab
