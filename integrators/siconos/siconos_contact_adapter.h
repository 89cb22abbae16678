// SiconosContactAdapter: the one place where a model's declared contacts become Siconos objects and where the
// Siconos simulations run [Acary & Brogliato 2008, "Numerical Methods for Nonsmooth Dynamical Systems", ch. 3
// (Lagrangian systems with unilateral constraints), ch. 8 (event-driven), ch. 10 (Moreau–Jean time-stepping)].
//
// Input (SiconosModelData, extracted from the model by siconos_model_data.h):
//   M v̇ = f − K q + Σ_k ∇δ_k λ_k,   M = diag(m), f and K constant (K: linear springs, often none),
//   contact terms δ_k(q) (system/pair_potential_structure.h)
// Each contact term becomes a rigid unilateral constraint with Newton's impact law [Moreau 1988;
// Acary & Brogliato 2008 eq. 3.113 and §10.1]:
//   y_k = g_k(q) = −δ_k(q) ≥ 0,   λ_k ≥ 0,   y_k λ_k = 0;    ẏ_k⁺ = −e ẏ_k⁻ at impacts
// as a Siconos Lagrangian relation ẏ = H(q) v, p = Hᵀλ:
//   wall term  δ = o + gᵀq       → LagrangianLinearTIR, y = −gᵀq − o (H = −gᵀ)
//   pair term, dim = 1            → LagrangianLinearTIR, y = s (x_b − x_a) − R (s = ±1, the side at build time)
//   pair term, dim ≥ 2            → a LagrangianScleronomousR with y = |x_b − x_a| − R (cancellation-free:
//                                   y = −PairGap), H = [−n, n], Ḣ = [−ṅ, ṅ], n = d/|d|, ṅ = (ḋ − n(n·ḋ))/|d|
// Frictional contacts (system/frictional_contact_structure.h: a gap g_α(q) and the 3 × n Jacobian H_α(q) of the
// local velocity (u_n, u_t1, u_t2), lever arms included) become Interactions with Siconos' Newton impact–friction
// law, NewtonImpactFrictionNSL(e, 0, μ_α, 3), and a 3-row LagrangianScleronomousR (y = (g, 0, 0), ẏ = H v):
//   0 ≤ u_n⁺ + e u_n⁻ ⊥ r_n ≥ 0,   r ∈ K_μ = {‖r_t‖ ≤ μ r_n},   −u_t⁺ ∈ ∂ψ_{D(μ r_n)}(r_t)     (Newton–Coulomb)
// [Moreau 1988; Jean 1999; Acary & Brogliato 2008 §3.9, §10.1]; Moreau–Jean then solves one 3-D friction-contact
// problem per step (FrictionContact(3), Siconos/Numerics' FC3D nonsmooth Gauss–Seidel SICONOS_FRICTION_3D_NSGS,
// tolerance 1e-14). The event-driven scheme takes them only frictionless (all μ_α = 0: the normal row with
// NewtonImpactNSL, Ḣ_n from the model); Siconos 4.4's EventDriven has scalar unilateral index sets and
// acceleration-level LCPs only (siconos_event_driven.h).
// One Lagrangian dynamical system carries the whole q, so momentum is exchanged through the impulses only. Its
// matrices are dense n × n (n = q.size()): memory O(n²), and a step's cost grows as n³ or faster (measured on the
// bead chain, docs/performance.md "Cost per step of every integrator"), so IntegratorTraits::dense_matrices is set.
// Moreau–Jean activates a contact when its predicted gap y + h/2 ẏ ≤ 16 ε L (L: the largest length in the gap
// functions), i.e. touching to round-off counts as touching.
//
// This header and its .cpp are C++17 (Siconos 4.4's Boost.uBLAS storage does not compile as C++20), hence a
// pimpl and no <span>-using impactlab header here.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <vector>

#include "system/frictional_contact_structure.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

/// What Siconos is given: initial state, diagonal mass, constant generalized force, contact terms.
struct SiconosModelData {
  double t0 = 0.0;
  Eigen::VectorXd q, v, mass, force;
  Eigen::MatrixXd stiffness;  ///< K of the linear springs besides the contacts (empty: none)
  std::vector<ContactTerm> terms;
  /// Frictional contacts declared by the model (instead of `terms`); must outlive the adapter. Null: none.
  const FrictionalContactStructure* frictional = nullptr;
  /// The e the model's compliant laws are calibrated to, when it declares one (frictional contacts only).
  std::optional<double> calibrated_restitution;
};

enum class SiconosScheme { kMoreauJean, kEventDriven };

struct SiconosSchemeSettings {
  SiconosScheme scheme = SiconosScheme::kMoreauJean;
  double restitution = 1.0;  ///< e of Newton's impact law on every contact
  double theta = 0.5;        ///< Moreau–Jean θ
  double rel_tol = 1e-10;    ///< LSODAR tolerances (event-driven)
  double abs_tol = 1e-12;
};

/// One contact's share of an impact: u = H_α(q) v, the normal relative velocity (ẏ_α, > 0 opening), before and
/// after, and the normal impulse P_α (Siconos' λ_α at the velocity level, Interaction::lambda(1)).
struct SiconosContactImpact {
  double t = 0.0;
  int contact = 0;  ///< the Interaction's index: the unilateral terms in declaration order, then frictional contacts
  double u_minus = 0.0, u_plus = 0.0, impulse = 0.0;
};

/// A velocity jump processed by the event-driven scheme, with the contacts that received an impulse in it.
struct SiconosImpact {
  double t = 0.0;
  Eigen::VectorXd v_before, v_after;
  std::vector<SiconosContactImpact> contacts;
};

class SiconosContactAdapter {
 public:
  /// Builds the Siconos problem and simulation with outer step h from t0. Throws std::runtime_error on failure.
  SiconosContactAdapter(const SiconosModelData& data, const SiconosSchemeSettings& settings, double h);
  ~SiconosContactAdapter();
  SiconosContactAdapter(const SiconosContactAdapter&) = delete;
  SiconosContactAdapter& operator=(const SiconosContactAdapter&) = delete;

  /// Moreau–Jean: one time step (to t0 + k h). Event-driven: every event up to t_target (a time of the
  /// discretisation), the impacts appended to `impacts`. Throws std::runtime_error when Siconos fails.
  void Advance(double t_target, std::vector<SiconosImpact>* impacts);
  /// Coordinates and velocities now.
  void Read(Eigen::VectorXd& q, Eigen::VectorXd& v) const;
  /// Iterations and residual of the last Moreau–Jean friction-contact solve (0 for an LCP or no active contact).
  int last_solver_iterations() const;
  double last_solver_residual() const;
  /// False when the last Moreau–Jean step's nonsmooth solver stopped without reaching its tolerance (Siconos/Numerics'
  /// info ≠ 0, e.g. FC3D NSGS at its 10⁴ sweeps on a frictional pile); the step keeps the solver's answer, as
  /// Siconos' TimeStepping does, and last_solver_residual() says how far it got.
  bool last_solver_converged() const;
  /// Generalized impulse p = Σ Hᵀ P of the last Moreau–Jean step (zero when no contact was active).
  const Eigen::VectorXd& last_impulse() const;
  /// Moreau–Jean: the contacts whose normal impulse became positive (above the round-off 64 ε max_i(m_i|v_i| + h|f_i|))
  /// in the last step after a step without one
  /// (u⁻ = H v_n at the step start t_n, u⁺ = H v_{n+1}, t = t_n). Empty for the event-driven scheme.
  const std::vector<SiconosContactImpact>& last_step_impacts() const;
  /// Nonsmooth problems solved in the last Advance with at least one active contact, and their solver iterations
  /// (Lemke pivots or FC3D sweeps as Siconos/Numerics reports them in iparam[SICONOS_IPARAM_ITER_DONE]).
  /// Event-driven: the impact LCPs of the located impacts.
  long last_problems() const;
  long last_problem_iterations() const;
  int num_interactions() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace impactlab
