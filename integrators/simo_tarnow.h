// SimoTarnow: energy–momentum conserving midpoint scheme with the composite discrete gradient
// F̄ = W̄'(δ_n, δ_{n+1}) ∇̄δ per contact term, the Greenspan/LaBudde form for pairs, and Φ-form damping
// [Simo & Tarnow 1992; Greenspan 1984; LaBudde & Greenspan 1974; docs/theory.md §7; Seed003 eq. (5)]:
//
//   Δq = h v_{n+½},   M Δv = −h [Σ_k (W̄'_k + c̄_k Δδ_k/h) ∇̄δ_k + b] + h f_ext(t_{n+½})
//
// Claims (measured in tests/integrators/conserving_schemes_test.cpp and the conservation study):
// H_{n+1} − H_n = −D_n exactly (to the Newton residual), D_n = Σ c̄ Δδ²/h ≥ 0; linear and angular momentum
// exact for isolated systems (central, equal-and-opposite pair forces); second order. On pair-potential
// models: contact_term_discrete_force.h; on frictional / spinning contact models the same gap quotients through
// the contact seam (contact/contact_law.h, system/discrete_contact_system.h); on a constant-mass model whose
// potential is not a sum of scalar gaps (the ECC volume law) Gonzalez's discrete gradient of V.
#pragma once

#include "integrators/contact_term_discrete_force.h"

namespace impactlab {

class SimoTarnow final : public QuotientDiscreteGradient {
 public:
  explicit SimoTarnow(ImplicitSchemeOptions options = {})
      : QuotientDiscreteGradient(DiscreteGradientForm::kGapQuotient, options) {}
  std::string name() const override { return "simo_tarnow"; }
  IntegratorTraits traits() const override;
};

}  // namespace impactlab
