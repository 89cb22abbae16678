// RigidBodyContactStep: one step of the energy-consistent rotation scheme for a rigid body that translates,
// rotates and is loaded by a potential V(x_G, R) (contact) and by dampers (issue 15; docs/rotation.md §6). It is
// the Lie–Poisson midpoint of integrators/lie_poisson_midpoint.h with the body's translation in the same step
// and the loads through a discrete gradient in the step's own rotation coordinate θ.
//
// Unknowns: v_{n+1} and Ω_{n+½} (Π_{n+½} = I Ω_{n+½}); θ = h Ω_{n+½} (body frame), Δx = h (v_n + v_{n+1})/2.
//   x_{n+1} = x_n + Δx,    R_{n+1} = R_n cay(θ̂)   (q_{n+1} = q_n ⊗ (1, θ/2)/√(1 + |θ|²/4); geometry/cayley_map.h)
//   m (v_{n+1} − v_n) = h F̄,                     F̄ = −∇̄ₓV_n + F_d
//   Π_{n+½} = Π_n + (h/2)(Π_{n+½} × Ω_{n+½} + τ̄),   τ̄ = −∇̄_θV_n + τ_d,    Π_{n+1} = 2Π_{n+½} − Π_n
// with V_n(x, θ) = V(x, R_n cay(θ̂)) and ∇̄V_n its Gonzalez (1996) midpoint discrete gradient between (x_n, 0)
// and (x_{n+1}, θ) in the metric W = diag(m, m, m, I₁, I₂, I₃) [Gonzalez 1996, J. Nonlinear Sci. 6:449;
// docs/theory.md §7; here with the metric W so that the units agree]:
//   ξ = (Δx, θ),   ∇̄V_n = g + (ΔV − g·ξ) Wξ / (ξᵀWξ),   ΔV = V(x_{n+1}, R_{n+1}) − V(x_n, R_n)
//   g = (−F_c(m), −τ_c(m)/(1 + |θ|²/16))   at the midpoint configuration m = (x_n + Δx/2, R_n cay(θ̂/2)).
// g·ξ is exactly the derivative ∂V_n/∂s(sξ) at s = ½: ∇_θV_n(θ/2) = −dcay(θ/2)ᵀ τ_c and dcay(θ/2)ᵀ =
// (1 + θ̂/4)/(1 + |θ|²/16), whose skew part is orthogonal to θ. That skew part (an O(h) rotation of the torque)
// is dropped from g: it would enter the body-momentum balance as (h²/4) Ω × τ per step and make the scheme first
// order (docs/rotation.md §6). (F_d, τ_d) are the model's dampers at the midpoint configuration and velocity
// (Δx/h, Ω_{n+½}).
// Friction (a tangential law with history z; system/rigid_body_system.h, DiscreteTangentialLoad): the model maps
// ξ to the slip Δs = Ḡξ with Ḡ linear, evaluated at the midpoint configuration, runs the law's return mapping
// from the committed z and returns (F_t, τ_t) = Ḡᵀ f̄_t, f̄_t = ½(F_prev + F_t) the law's algorithmic force; they
// join (F̄, τ̄). Its history z_{n+1} is committed with the accepted step only [Mindlin & Deresiewicz 1953 via
// Seed002 eqs. 2–19; the trapezoidal force whose work the law books: docs/theory.md §6, §7; docs/rotation.md §7].
// For the ellipsoid Δs = P_t(Δx + (R_m θ) × r_m), r_m the contact point's lever at the midpoint configuration
// (models/ellipsoid_wall_impact_3d.h). Second order in stick and in sliding with a fixed slip direction; when the
// slip direction turns during gross sliding the laws' return mapping (one projection onto the Coulomb disc per
// step) is first order, for this scheme as for every other (measured, docs/rotation.md §7).
//
// Energy (exact for any iterate that satisfies the two balances; to the Newton tolerance in practice):
//   ΔT = m(v_{n+1} − v_n)·(v_n + v_{n+1})/2 + 2(Π_{n+½} − Π_n)·Ω_{n+½} = F̄·Δx + τ̄·θ   ((Π × Ω)·Ω = 0)
//      = −∇̄V_n·ξ + F_d·Δx + τ_d·θ + f̄_t·Δs = −ΔV − ΔD + f̄_t·Δs,
//   ΔD = −(F_d·Δx + τ_d·θ)  booked into MechanicalState::dissipated,
//   f̄_t·Δs = U_t,n − U_t,n+1 − W_f + W_g  (the tangential law's books, tangential_law.h; W_f, W_g in z)
// so T + V + U_t + D + W_f − W_g is constant to round-off. With dampers P = −(F_d·v + τ_d·Ω) ≥ 0 evaluated at one
// configuration, ΔD = h P ≥ 0.
// Second order (a symmetric midpoint scheme up to O(h³) terms; measured, tests/integrators/rigid_body_contact_step_test.cpp).
// Newton (integrators/newton_solver.h) on the residual in velocity units (v, ℓΩ), ℓ = √(max Iᵢ / m), with a
// central-difference Jacobian (6 × 6; the ECC volume potential has no cheap Hessian in rotations).
#pragma once

#include <string_view>

#include "integrators/integrator.h"
#include "integrators/newton_solver.h"
#include "system/rigid_body_system.h"
#include "system/sparse_assembly.h"

namespace impactlab {

/// Everything a rigid-body step stores (Newton's workspace, the unknowns, the difference probes, the Jacobian's
/// entries and the history of the trial), kept by the integrator between steps: a step allocates nothing once
/// `Reserve` has sized it (tests/integrators/step_allocation_test.cpp). Also the free body's (lie_poisson_midpoint.h).
struct RigidBodyStepWorkspace {
  /// Sizes everything for n unknowns (no-op when already sized).
  void Reserve(Eigen::Index n);
  NewtonWorkspace newton;
  Eigen::VectorXd y, r, probe_plus, probe_minus, r_plus, r_minus, z_trial;
  SparseEntries entries;  ///< the dense Jacobian's nonzero entries (AssembleNonzeros)
  SparseAssembler assembler;
  Eigen::Index sized_n = -1;
};

/// Advances `state` (q = (x_G, quaternion), v = (v_G, Ω)) by h. On a non-accepted status the caller restores it.
/// `name` prefixes failure messages (a view: no string is built unless the step fails); `stats` collects Newton counts.
StepResult RigidBodyContactStep(const RigidBodySystem& body, MechanicalState& state, double h,
                                const NewtonOptions& newton, StepStatistics& stats, std::string_view name,
                                RigidBodyStepWorkspace& workspace);

}  // namespace impactlab
