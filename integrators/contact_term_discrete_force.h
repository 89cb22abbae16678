// Discrete contact force of the energy-consistent midpoint schemes, term by term over a model's
// PairPotentialStructure (lib/system/pair_potential_structure.h) [docs/theory.md §7]:
//
//   F̄ = Σ_k s_k ∇̄δ_k + b,   s_k = W̄'_k + c̄_k Δδ_k / h,   D_n = Σ_k c̄_k Δδ_k² / h ≥ 0
//
// with the difference quotients (lib/contact/discrete_derivative.h; midpoint fallback when
// |δ₁ − δ₀| ≤ 1e-7 (|δ₀| + |δ₁|), decided in the gap δ for both pair forms)
//   W̄'(δ₀, δ₁) = (W(δ₁) − W(δ₀))/(δ₁ − δ₀),   c̄ = (Φ(δ₁) − Φ(δ₀))/(δ₁ − δ₀)   (Φ-form damping)
// and a discrete gradient ∇̄δ with ∇̄δ·Δq = Δδ:
//   wall term (δ affine):  ∇̄δ = ∇δ = g                                 [Armero–Petőcz 1998; Laursen–Chawla 1997]
//   pair term, form kGapQuotient (Simo–Tarnow / Greenspan–LaBudde, docs/theory.md §7 "Sphere–sphere"):
//       ∇̄_b δ = −(x_b − x_a)_{n+½} / r̄,  ∇̄_a δ = −∇̄_b δ,  r̄ = (r_n + r_{n+1})/2
//   pair term, form kInvariantQuotient (Gonzalez 1996 in the invariant C = |x_b − x_a|²):
//       F̄_b = [W̃̄'(C₀, C₁) + c̃̄ ΔC/h] · 2 (x_b − x_a)_{n+½},  W̃(C) = W(R − √C), Φ̃ likewise
// Both pair forms are central (along (x_b − x_a)_{n+½}) and equal and opposite, so linear and angular
// momentum are conserved exactly; energy: ΔK = −Σ s_k Δδ_k = −ΔW − D_n. (Algebraically the two pair
// forms coincide, since ΔC = 2 r̄ Δr; they differ only in where the degenerate-step fallback is taken,
// δ-space or C-space.) The Jacobian ∂F̄/∂q_{n+1} is exact (derived in docs/conserving-schemes.md).
// Cost: Newton evaluates F̄(q_n, ·) several times per step with the same q_n; the step-start values W(δ_n), Φ(δ_n)
// come from a StepStartMemo (keyed by the exact δ_n, reset once per step), and each quotient evaluates f(δ₀) and
// f(δ₁) once (value and round-off noise share them): the same operations on the same inputs, bitwise the same F̄.
#pragma once

#include "contact/contact_law.h"  // DiscreteGradientForm
#include "integrators/midpoint_family_integrator.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

/// The step-start values W_k(δ_k,n) and Φ_k(δ_k,n) of each term, kept between the evaluations of one step (Newton
/// evaluates F̄(q_n, ·) 5–6 times per step with the same q_n). An entry is used only when its δ equals the
/// requested δ bit for bit and it was stored since the last Reset(), so a hit returns exactly what the law would
/// (same function, same input); Reset() whenever the structure or its laws may have changed (once per step).
/// A cache: results never depend on it.
class StepStartMemo {
 public:
  /// Forget every entry; `terms` is the structure's term count (storage grows only when it grows).
  void Reset(std::size_t terms);
  /// W(δ) and Φ(δ) of term `index` (its laws `law`, `damper`) at δ = `d0`.
  struct Values {
    double potential, dissipation_potential;
  };
  const Values& At(std::size_t index, double d0, const NormalContactLaw& law, const DampingLaw& damper);

 private:
  struct Entry {
    double d0 = 0.0;
    unsigned long epoch = 0;  // valid when equal to epoch_
    Values values{};
  };
  std::vector<Entry> entries_;
  unsigned long epoch_ = 0;
};

/// F̄ and (when `jacobian` is non-null) ∂F̄/∂q1; `memo`, when given, serves the step-start values W(δ_n), Φ(δ_n)
/// (the results are bitwise the same with or without it).
void EvaluateContactTermDiscreteForce(const PairPotentialStructure& structure, DiscreteGradientForm form,
                                      const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, double h,
                                      DiscreteForceEvaluation& out, NewtonJacobian* jacobian,
                                      StepStartMemo* memo = nullptr);

/// The same F̄ and ∂F̄/∂q1 on a system of N ≤ 3 unknowns in fixed-size storage (the small-system path of
/// MidpointFamilyIntegrator): the same statements as the overload above, over every term (no broad phase: the terms
/// it would leave out add nothing), so bitwise the same values (tests/integrators/small_system_path_test.cpp).
/// Instantiated for N = 1, 2, 3.
template <int N>
void EvaluateContactTermDiscreteForce(const PairPotentialStructure& structure, DiscreteGradientForm form,
                                      const Eigen::VectorXd& q0, const Eigen::Matrix<double, N, 1>& q1, double h,
                                      SmallDiscreteForce<N>& out, Eigen::Matrix<double, N, N>* jacobian,
                                      StepStartMemo* memo);

/// The shared machinery of the two quotient schemes (Simo–Tarnow: form kGapQuotient; Gonzalez invariant: form
/// kInvariantQuotient): the discrete force above on pair-potential models, Gonzalez's Cartesian discrete gradient
/// on constant-mass models whose potential is not a sum of scalar-gap terms (the ECC volume law), and the contact
/// seam on DiscreteContactSystem models (friction, spin). The two differ only in the form and their traits.
class QuotientDiscreteGradient : public MidpointFamilyIntegrator {
 public:
  DiscreteGradientForm contact_form() const override { return form_; }

 protected:
  QuotientDiscreteGradient(DiscreteGradientForm form, ImplicitSchemeOptions options)
      : MidpointFamilyIntegrator(options), form_(form) {}
  /// Traits common to both: order 2, implicit, energy and momentum conserving, library impactlab.
  static IntegratorTraits EnergyMomentumTraits(std::string reference, std::string damping_treatment);

 private:
  void Prepare(const ConstantMassSystem& system) override;
  void EvaluateDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                             double h, DiscreteForceEvaluation& out, NewtonJacobian* jacobian) const override;
  std::optional<ContactTermForce> contact_term_force() const override;
  DiscreteGradientForm form_;
  const PairPotentialStructure* structure_ = nullptr;
  CachedDowncast<PairPotentialStructure> as_structure_;
  mutable StepStartMemo memo_;  ///< W(δ_n), Φ(δ_n) of the current step (Reset in Prepare)
};

/// The structure behind `system`, or InvalidParameter naming the integrator.
const PairPotentialStructure& RequirePairPotentialStructure(const MechanicalSystem& system,
                                                            const std::string& integrator);

}  // namespace impactlab
