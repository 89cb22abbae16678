// DiscreteContactSystem: the optional model structure through which the midpoint-type implicit schemes (implicit
// midpoint, Simo–Tarnow, both Gonzalez forms, EFDA) advance models whose contacts carry friction, spin or a
// history — beyond the frictionless pair potentials of PairPotentialStructure [docs/theory.md §7].
//
//   q̇ = v,   M = diag(m) constant,
//   q_{n+1} − q_n = h v_{n+½},   M (v_{n+1} − v_n) = −h F̄(state_n, q_{n+1})
//
// The model evaluates F̄ contact by contact through the contact seam (contact/contact_law.h): it builds each
// contact's kinematics at q_n and q_{n+1} (overlap, discrete gap gradient ∇̄δ with ∇̄δ·Δq = Δδ exactly, the
// discrete tangential map Ḡ with ḠΔq = Δs exactly) and applies the law's algorithmic forces s_n ∇̄δ and Ḡᵀ f̄_t;
// the scheme only chooses the DiscreteGradientForm. Then, for the quotient forms, exactly (to round-off)
//   E_{n+1} − E_n = −(damping work + friction work) + generated work (W_g of the tangential law) + external work,
// where all three are booked in DiscreteContactStep and committed with the step's history z_{n+1}.
// The model knows nothing about the scheme beyond the form; the scheme knows nothing about the model.
#pragma once

#include <Eigen/Core>

#include "contact/contact_law.h"
#include "state/mechanical_state.h"

namespace impactlab {

/// F̄ and the books of one step (the evaluation at a Newton iterate, or the converged step).
struct DiscreteContactStep {
  Eigen::VectorXd force;         ///< F̄: generalized contact force minus external force [N, N·m]
  double scale = 0.0;            ///< magnitude of the terms summed in `force` (round-off scale) [N]
  double damping_work = 0.0;     ///< dashpot work over the step [J] (→ MechanicalState::dissipated)
  double friction_work = 0.0;    ///< slip work over the step (incl. springs released at separation) [J]
  double generated_work = 0.0;   ///< energy created by the tangential laws over the step [J], signed
  /// What the step adds to MechanicalState::dissipated [J] (the model's convention: the sphere models keep the
  /// dashpot work there and friction / generated work in z; the planar penalty models keep all of it there).
  double dissipated = 0.0;
  Eigen::VectorXd z_next;        ///< history after the step (the model's books included)
};

class DiscreteContactSystem {
 public:
  virtual ~DiscreteContactSystem() = default;
  /// Diagonal of the constant mass matrix [kg, kg·m²].
  virtual Eigen::VectorXd DiscreteMassDiagonal() const = 0;
  /// The same into m (resized when its size differs): the allocation-free form an implicit step uses (default: a
  /// copy of DiscreteMassDiagonal()).
  virtual void WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const { m = DiscreteMassDiagonal(); }
  /// F̄ and the books of the step from the committed state `before` to positions q1, step h.
  virtual void EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                    DiscreteGradientForm form, DiscreteContactStep& out) const = 0;
};

}  // namespace impactlab
