// PowerLawOscillatorStructure: an optional interface a MechanicalSystem may implement to say that it IS the
// 1-DOF power-law Tsuji contact oscillator of seed 001 [docs/theory.md §5], so that schemes which need the closed
// form (integrators/exact_oscillator_stepper) can use it without knowing the model class.
//
//   m δ̈ + α √(m k) δ^((p−1)/2) δ̇ + k δ^p = 0 while δ > 0, free flight (δ̈ = 0) otherwise, no gravity,
//   δ = c·q[0], δ̇ = c·v[0] with c = overlap_per_coordinate (= −1 for a height coordinate above a wall).
//
// The accessor returns std::nullopt (and a reason) when the configured laws are not of that form, e.g.
// a non-power-law elastic law, a damping law that is not C = α√(mk)δ^((p−1)/2), or gravity ≠ 0.
#pragma once

#include <optional>
#include <string>

namespace impactlab {

struct PowerLawOscillatorParameters {
  double mass = 1.0;                    ///< m [kg]
  double stiffness = 1.0;               ///< k [N/m^p]
  double exponent = 1.0;                ///< p ≥ 1
  double alpha = 0.0;                   ///< Tsuji α ≥ 0 (0: undamped)
  double overlap_per_coordinate = -1.0; ///< c in δ = c q[0] (±1)
};

class PowerLawOscillatorStructure {
 public:
  virtual ~PowerLawOscillatorStructure() = default;
  /// The oscillator's parameters, or nullopt with `why_not` (if non-null) set to a one-line reason.
  virtual std::optional<PowerLawOscillatorParameters> PowerLawOscillator(std::string* why_not) const = 0;
};

}  // namespace impactlab
