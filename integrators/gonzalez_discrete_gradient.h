// GonzalezDiscreteGradient: the Cartesian midpoint discrete gradient of a general V(q) [Gonzalez 1996,
// J. Nonlinear Sci. 6:449; docs/theory.md §7]:
//
//   ∇̄V = ∇V(q_{n+½}) + r Δq,   r = (ΔV − ∇V(q_{n+½})·Δq) / |Δq|²
//   Δq = h v_{n+½},   M Δv = −h [∇̄V + C(q_{n+½}) Δq/h] + h f_ext(t_{n+½})
//
// Energy: H_{n+1} − H_n = −D_n (D_n = Δqᵀ C(q_{n+½}) Δq / h) to the Newton residual, for any model with
// V, ∇V and ∇²V (no contact structure needed). Second order. It generally conserves neither linear nor
// angular momentum (Σ_A r Δq_A ≠ 0) [docs/theory.md §7 "Momentum caveat"]; compare gonzalez_dg_invariant.
// Cancellation guard: r = 0 when ΔV − ∇V·Δq is at the round-off level of its terms.
// Newton Jacobian: ½H + r I + C/h + ½ ∂(C(q) w)/∂q|_{q_{n+½}} (w = Δq/h) + Δq ⊗ (∇V(q_{n+1}) − G − ½HΔq − 2rΔq)/|Δq|²,
// the rank-one part handled by Sherman–Morrison (newton_solver.h), so sparse models stay sparse. The ∂C/∂q term comes
// from the model's ConstantMassSystem::AppendDampingForceGradientEntries (left out where a model has none).
#pragma once

#include "integrators/midpoint_family_integrator.h"

namespace impactlab {

/// The Cartesian discrete gradient force above for any ConstantMassSystem (also the fallback of Simo–Tarnow and
/// of the invariant form on models whose potential is not a sum of scalar-gap terms, e.g. the ECC volume law).
void EvaluateGonzalezDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                   const Eigen::VectorXd& q1, double h, DiscreteForceEvaluation& out,
                                   NewtonJacobian* jacobian);

class GonzalezDiscreteGradient final : public MidpointFamilyIntegrator {
 public:
  explicit GonzalezDiscreteGradient(ImplicitSchemeOptions options = {}) : MidpointFamilyIntegrator(options) {}
  std::string name() const override { return "gonzalez_dg"; }
  IntegratorTraits traits() const override;
  DiscreteGradientForm contact_form() const override { return DiscreteGradientForm::kCartesian; }

 private:
  void EvaluateDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                             double h, DiscreteForceEvaluation& out, NewtonJacobian* jacobian) const override;
};

}  // namespace impactlab
