// NormalContactLaw: an elastic normal contact law given by its potential W(δ).
//
//   δ  [m]   overlap (penetration depth), δ > 0 in contact; W(δ) = 0 for δ ≤ 0
//   W(δ) [J]  stored elastic energy,   F(δ) = W'(δ) [N] (compressive force > 0),
//   K(δ) = dF/dδ [N/m] tangent stiffness,
//   k_eff(δ) = W'(δ)² / (2 W(δ)) [N/m] Feng's effective stiffness [Seed000, eq. 28; docs/theory.md §2].
//
// Laws of the power-law family F = k δ^p also report (k, p); the generalized Tsuji damping and the exact
// solver of seed 001 are written in those terms. Laws know nothing about integrators or models.
#pragma once

#include <string>

namespace impactlab {

class NormalContactLaw {
 public:
  virtual ~NormalContactLaw() = default;
  virtual std::string name() const = 0;
  /// One-line source of the law (paper, equation).
  virtual std::string reference() const = 0;
  /// W(δ) [J]; 0 for δ ≤ 0.
  virtual double Potential(double delta) const = 0;
  /// F = W'(δ) [N]; 0 for δ ≤ 0.
  virtual double Force(double delta) const = 0;
  /// dF/dδ [N/m]; 0 for δ < 0.
  virtual double Stiffness(double delta) const = 0;
  /// k_eff = W'²/(2W) [N/m] in its regular closed form (finite at δ → 0⁺, no 0/0).
  virtual double EffectiveStiffness(double delta) const = 0;
  /// Power-law coefficient k in F = k δ^p [N/m^p].
  virtual double coefficient() const = 0;
  /// Power-law exponent p ≥ 1.
  virtual double exponent() const = 0;
};

}  // namespace impactlab
