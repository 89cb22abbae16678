// DampingLaw: a viscous normal damper F_d = C(δ) δ̇ [N], added to the elastic force W'(δ)
// (F_n = W'(δ) + C(δ) δ̇, never clipped at zero [docs/theory.md §1, §12.1]).
//
//   C(δ) [N·s/m]      the damping coefficient, C(δ) ≥ 0, 0 for δ ≤ 0
//   Φ(δ) = ∫₀^δ C(s) ds [N·s]   the damping "potential" used by energy-consistent schemes (Φ-form,
//                      docs/theory.md §7): the damping impulse over a step is exactly Φ(δ₁) − Φ(δ₀).
//   dissipated power P = C(δ) δ̇² ≥ 0.
//   C'(δ) [N·s/m²]     dC/dδ, read by the Newton Jacobians of the implicit schemes whose damping force C(q) v is
//                      evaluated at a configuration that moves with the unknown (the ∂C/∂q·v term, docs/theory.md §7).
//
// Laws are bound at construction to the elastic law and the mass they damp (e.g. Tsuji's √(m k)).
#pragma once

#include <string>

namespace impactlab {

class DampingLaw {
 public:
  virtual ~DampingLaw() = default;
  virtual std::string name() const = 0;
  virtual std::string reference() const = 0;
  /// C(δ) [N·s/m]; 0 for δ ≤ 0.
  virtual double Coefficient(double delta) const = 0;
  /// C'(δ) = dC/dδ [N·s/m²] for δ > 0 (closed form); 0 for δ ≤ 0. May be unbounded as δ → 0⁺ (Tsuji: δ^(−3/4)).
  virtual double CoefficientDerivative(double delta) const = 0;
  /// Φ(δ) = ∫₀^max(δ,0) C [N·s].
  virtual double DissipationPotential(double delta) const = 0;
  /// True when the restitution this law produces depends on the impact velocity.
  virtual bool velocity_dependent_restitution() const = 0;
};

}  // namespace impactlab
