// InvariantDiscreteGradient: Gonzalez's discrete gradient built in the symmetry invariants of the
// potential (squared pair distances C = |x_b − x_a|², affine wall gaps δ) [Gonzalez 1996, J. Nonlinear
// Sci. 6:449, symmetry part; docs/theory.md §7 "Momentum caveat"]:
//
//   ∇̄V = Σ_k ∂̄_C W̃_k(C_n, C_{n+1}) ∇C_k(q_{n+½}) + b,   ∇C(q_{n+½})·Δq = ΔC exactly (C quadratic)
//
// with Φ-form damping in the same invariant. Conserves energy (to the Newton residual) and linear and
// angular momentum of isolated systems; second order. Registered as "gonzalez_dg_invariant", next to the
// Cartesian "gonzalez_dg" (gonzalez_discrete_gradient.h) so users see the momentum difference.
#pragma once

#include "integrators/contact_term_discrete_force.h"

namespace impactlab {

class InvariantDiscreteGradient final : public QuotientDiscreteGradient {
 public:
  explicit InvariantDiscreteGradient(ImplicitSchemeOptions options = {})
      : QuotientDiscreteGradient(DiscreteGradientForm::kInvariantQuotient, options) {}
  std::string name() const override { return "gonzalez_dg_invariant"; }
  IntegratorTraits traits() const override;
};

}  // namespace impactlab
