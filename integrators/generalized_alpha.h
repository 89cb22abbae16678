// GeneralizedAlpha: the Newmark / HHT-α / generalized-α implicit baselines as ONE scheme fed with a
// GeneralizedAlphaParameters set [Chung & Hulbert 1993; Hilber, Hughes & Taylor 1977; Newmark 1959;
// docs/theory.md §9]:
//
//   d_{n+1} = d_n + h v_n + h² [(½ − β) a_n + β a_{n+1}]
//   v_{n+1} = v_n + h [(1 − γ) a_n + γ a_{n+1}]
//   M [(1 − α_m) a_{n+1} + α_m a_n] + (1 − α_f) f(d_{n+1}, v_{n+1}) + α_f f(d_n, v_n)
//                                   = (1 − α_f) f_ext(t_{n+1}) + α_f f_ext(t_n)
//   f(d, v) = ∇V(d) + C(d) v
//
// The internal force is weighted (force-averaged form, as in Hilber–Hughes–Taylor's original); for
// α_m = α_f = 0 this is Newmark exactly. Unknown d_{n+1}; Newton (newton_solver.h) with
// J = (1 − α_m) M/(βh²) + (1 − α_f)[∇²V(d_{n+1}) + γ/(βh) C(d_{n+1}) + ∂(C(d) v_{n+1})/∂d|_{d_{n+1}}], exact; the
// last term from the model's ConstantMassSystem::AppendDampingForceGradientEntries (left out where a model has none,
// and damped steps then converge linearly).
// Energy is NOT conserved for non-quadratic V: the trapezoidal rule's step error is the quadrature error
// ΔV − ½Δd·(∇V_n + ∇V_{n+1}) [docs/theory.md §9]. The dissipated work is recorded by the trapezoidal rule
// h/2 (P_n + P_{n+1}), P = vᵀ C v. The acceleration a_n is carried between steps (recomputed from the
// equations of motion when the state was changed from outside).
//
// Models that are not a ConstantMassSystem but have q̇ = v and a constant mass matrix (contacts with friction and
// spin: sphere_wall, sphere_pair, the planar ellipses) are advanced in the acceleration form of the same scheme,
//   (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) a(t_{n+1}, d_{n+1}, v_{n+1}, z_n) + α_f a(t_n, d_n, v_n, z_n),
// identical to the force form for constant M (multiply by M); a(·) is the model's Acceleration with the history
// of the committed step (the tangential laws' trial springs), Newton with a forward-difference Jacobian, the
// dissipated work by the trapezoidal rule of the model's DissipationPower, and UpdateHistory commits the step. Above
// 24 unknowns, on a model that lays out its contacts (system/discrete_contact_jacobian.h: the sphere assembly), the
// difference is grouped (integrators/colored_forward_difference.h): one evaluation of a per group of columns that
// share no contact, ≈ 100–250 for a packing of any size, instead of one per coordinate.
// Models with q̇ = N(q)v, N ≠ I (unit quaternions) are refused with the reason.
#pragma once

#include <string>

#include "integrators/generalized_alpha_parameters.h"
#include "integrators/colored_forward_difference.h"
#include "integrators/midpoint_family_integrator.h"
#include "system/discrete_contact_jacobian.h"

namespace impactlab {

/// The force form's storage, kept between steps so that a step allocates nothing once it has been sized (issue 19
/// item 1; tests/integrators/step_allocation_test.cpp): the Newton workspace, the step's vectors, and C, ∇²V and J
/// assembled on the pattern of the previous call. Never part of a result.
struct GeneralizedAlphaWorkspace {
  NewtonWorkspace newton;
  Eigen::VectorXd mass, a0, g0, f0, fe0, fe1, f_ext, d1, damping_v, inertia, a1, v1, g1, f1;
  SparseEntries entries;
  SparseAssembler start_damping_assembler, damping_assembler, hessian_assembler, damping_gradient_assembler;
  Eigen::SparseMatrix<double> damping0, damping1, hessian, stiffness;
  Eigen::SparseMatrix<double> damping_gradient;  ///< ∂(C(d) v₁)/∂d at d₁ (ConstantMassSystem::AppendDampingForceGradientEntries)
  std::size_t reserved_entries = static_cast<std::size_t>(-1);
  Eigen::Index reserved_n = -1;
};

/// The acceleration form's storage (models that are not a ConstantMassSystem), kept between steps in the same way:
/// the Newton workspace, the trial state of the residual, its vectors, and the dense difference's entries.
struct GeneralizedAlphaAccelerationWorkspace {
  NewtonWorkspace newton;
  Eigen::VectorXd a0, d1, a1, v1, f0, f1, dp, rp, step;
  bool f0_ready = false;  ///< a(t_n, d_n, v_n) evaluated in this step
  MechanicalState trial;
  SparseEntries entries;
  SparseAssembler assembler;
  ContactBlocks layout;  ///< the grouped difference's contact layout
};

class GeneralizedAlpha final : public Integrator {
 public:
  /// `name` is the registry name ("newmark", "trapezoidal", "hht_alpha", "generalized_alpha").
  GeneralizedAlpha(std::string name, GeneralizedAlphaParameters parameters, ImplicitSchemeOptions options = {});
  std::string name() const override { return name_; }
  IntegratorTraits traits() const override;
  void Reset() override { cache_valid_ = false; }
  const GeneralizedAlphaParameters& parameters() const { return p_; }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  StepResult DoAccelerationFormStep(const MechanicalSystem& system, MechanicalState& state, double h);
  std::string name_;
  GeneralizedAlphaParameters p_;
  ImplicitSchemeOptions options_;
  /// Sizes the force form's storage for n unknowns and the model's contact list (once per model and size).
  void ReserveForceForm(const ConstantMassSystem& system, Eigen::Index n);
  bool cache_valid_ = false;
  MechanicalState cached_state_;
  Eigen::VectorXd cached_acceleration_;
  GeneralizedAlphaWorkspace force_;
  GeneralizedAlphaAccelerationWorkspace accel_;
  CachedDowncast<DiscreteContactJacobian> as_contact_jacobian_;
  CachedDowncast<ConstantMassSystem> as_constant_mass_;
  CachedDowncast<PairPotentialStructure> as_structure_;
  /// The acceleration form's grouped forward difference (its colouring is kept while the contacts do not change).
  ColoredForwardDifference colored_;
};

}  // namespace impactlab
