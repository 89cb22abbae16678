// TangentialLaw: a history-dependent tangential (friction) contact law of the Hertz–Mindlin family, with
// its history as an explicit value (stored by the model in MechanicalState::z, never in the law, so that
// rollback of a rejected step is exact) [STYLE.md §3.4; docs/theory.md §6].
//
// Sign conventions [docs/theory.md §1]. n is the unit contact normal pointing from the wall (body A) into the
// sphere (body B). Δs is the tangential displacement increment of the sphere's contact point relative to
// the wall since the last committed step (Δs = ∫ v_s dt, v_s the slip velocity), lying in the current
// tangent plane. F_t is the tangential force ON THE SPHERE; a stuck spring gives F_t = −k_t δ_t, opposing
// the accumulated displacement δ_t. Magnitudes are capped by μ F_n (Coulomb), F_n the elastic normal force.
//
// One step of every law (the step is the one the integrator takes; incremental laws are defined per step
// [Seed002 eqs. 8–15]):
//   1. the stored spring (force or displacement) is rotated into the current tangent plane, keeping its
//      magnitude (RotateIntoTangentPlane);
//   2. law-specific stiffness update → predicted spring force F′ (e.g. Tsuji: F′ = −k_t(δ_n) δ_t);
//   3. elastic increment → trial force F_tr = F′ − k_inc Δs;
//   4. Coulomb cap: F_t = F_tr if |F_tr| ≤ μF_n, else μF_n F_tr/|F_tr| (the spring is reset to it).
// Energy split of the step (TangentialResponse), with U(F) = |F|²/(2 k_store) the stored elastic energy:
//   generated_work = U(F_tr) − U_prev + ½ (F_prev + F_tr)·Δs     (F_prev: the committed spring force)
//                    energy the uncapped update creates (> 0) or destroys (< 0): for the integral laws
//                    exactly ½ (k_t(δ_n) − k_t(δ_n,prev)) δ_t,prev·δ_t,trial, the (second-order) work of the
//                    δ_n-dependent stiffness [docs/theory.md §6, "Energy bookkeeping"]; 0 for a constant linear spring.
//                    Reported, never clipped.
//   work_in        = −½ (F_prev + F_t)·Δs     work done by the sphere on the contact with the force actually
//                    applied (after the cap), trapezoidal over the step
//   friction_work  = U_prev + work_in + generated_work − U(F_t)
//                    the cap removal: 0 in stick (F_t = F_tr), μ F_n |Δs| in collinear gross slip
// (F′ enters only the trial force) so that, exactly, U_prev + work_in + generated_work = U_new + friction_work.
//
// Slip → stick inside the step [Mindlin & Deresiewicz 1953: the gross-slip spring follows the cone; Thornton
// et al. 2013; docs/theory.md §6, "Switches inside a step"]. A spring that starts the step in gross slip sits on
// the cone (|F′| = μ F_n,prev) and moves with it, not with Δs: the slider takes the excess. If the contact sticks
// at t* inside the step, the exact spring at the step end is the cone's at t* plus the stick increment after t*,
// while step 3 above loads it with the whole Δs: an error k_t·λ*, λ* = the slider's travel before t*, = O(h²),
// committed in the history and kept for the whole stick phase (it caps any scheme at order 2; docs/convergence.md).
// With the committed state's rates (TangentialStartRates) the laws of tangential_spring_step.h locate the switch:
// the excess of the stuck trial over the cone along the slip direction e, m(τ) (τ = time since the committed
// state, m(0) = 0), is known at the step end, m₁, and by its rate at the start, G = h ṁ(0) = h (e·v_s − ρ̇) in the
// law's units (ρ the cone radius). The quadratic through these three data,
//   m(τ) ≈ G τ/h + (m₁ − G)(τ/h)²,
// has its maximum inside the step iff G > 0 and m₁ < G/2 (the slip rate changes sign in the step); then
//   λ* = max m = G²/(4(G − m₁))   (SwitchSlip),   F_tr ← F_tr + λ* (force units) e   (the stick trial after t*),
// exact when m is quadratic in τ, with an O(h³) error otherwise. Otherwise λ* = 0 and the step is the one-step
// return mapping above. λ* is continuous: at m₁ = G/2 it is m₁, and the corrected trial lies on the end cone,
// where the cap of step 4 puts the uncorrected one. The reverse switch (stick → slip) needs nothing: the spring
// ends on the cone whenever the end slips, which the cap gives exactly. generated_work is that of the elastic
// trial; the slider's work before t* goes to friction_work.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <span>
#include <string>

namespace impactlab {

/// The committed state's rates and the time since it, with which a law locates a slip → stick switch inside the
/// step (above). step = 0 (the default) means unknown: the law then takes the one-step return mapping.
struct TangentialStartRates {
  Eigen::Vector3d slip_velocity = Eigen::Vector3d::Zero();  ///< v_s = dΔs/dτ at the committed state [m/s]
  double overlap_rate = 0.0;       ///< δ̇_n at the committed state [m/s]
  double normal_force_rate = 0.0;  ///< dF_n/dt of the elastic normal force there, W''(δ_n) δ̇_n [N/s]
  double step = 0.0;               ///< h: time from the committed state to this evaluation [s]
};

/// What a tangential law sees of the contact in one step.
struct TangentialKinematics {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();      ///< n, unit, wall → sphere
  double delta_n_prev = 0.0;      ///< overlap at the last committed step [m] (≤ 0: contact just started)
  double delta_n = 0.0;           ///< current overlap [m] (> 0 in contact)
  double normal_force_prev = 0.0; ///< elastic normal force at the last committed step [N]
  double normal_force = 0.0;      ///< current elastic normal force [N] (sets the cap μ F_n)
  Eigen::Vector3d displacement_increment = Eigen::Vector3d::Zero();  ///< Δs [m], in the tangent plane
  TangentialStartRates start;     ///< rates at the committed state (slip → stick switch; step = 0: not used)
};

/// Result of one evaluation (a trial at a stage, or the committed step).
struct TangentialResponse {
  Eigen::Vector3d force = Eigen::Vector3d::Zero();  ///< F_t on the sphere after the cap [N]
  /// F_prev: the committed spring force as the law used it in this step (rotated into the current tangent
  /// plane) [N]. work_in = −½(F_prev + F_t)·Δs, so ½(F_prev + F_t) is the force whose work over the step the
  /// law books: the tangential force of the energy-consistent schemes (contact/contact_law.h).
  Eigen::Vector3d previous_force = Eigen::Vector3d::Zero();
  bool sliding = false;           ///< the cap was active
  double stored_energy = 0.0;     ///< U_t after the step [J]
  double work_in = 0.0;           ///< −½(F_prev + F_t)·Δs [J]
  double friction_work = 0.0;     ///< cap removal ≥ 0 [J]
  double generated_work = 0.0;    ///< energy created by the law's stiffness change [J], signed
  /// 1 − |F_tr|/(μ F_n): the cap's relative margin over the (switch-corrected) trial force, > 0 stick, < 0 slip;
  /// its sign change + → − is the stick → slip switch (a kink of F_t). +∞ when μ F_n = 0 (no stick branch) or
  /// when the law does not report it.
  double cap_margin = std::numeric_limits<double>::infinity();
};

/// Rotates a vector into the tangent plane of `normal` keeping its magnitude: v ← |v| P_t v/|P_t v|
/// (P_t = I − n nᵀ). A vector parallel to n (no tangential part) is set to zero.
Eigen::Vector3d RotateIntoTangentPlane(const Eigen::Vector3d& v, const Eigen::Vector3d& normal);

class TangentialLaw {
 public:
  virtual ~TangentialLaw() = default;
  virtual std::string name() const = 0;
  /// One-line source (paper, equations).
  virtual std::string reference() const = 0;
  /// Number of history entries (the law's slice of MechanicalState::z). A zero history means "no spring".
  virtual int history_size() const = 0;
  /// Stored elastic energy U_t [J] of the history `z` at overlap δ_n.
  virtual double StoredEnergy(std::span<const double> z, double delta_n) const = 0;
  /// Spring force represented by the history `z` at overlap δ_n (no increment, no cap) [N].
  virtual Eigen::Vector3d SpringForce(std::span<const double> z, double delta_n) const = 0;
  /// One step from the committed history `z_prev` to `z_next` (same size). Pure function.
  virtual TangentialResponse Evaluate(const TangentialKinematics& kinematics, std::span<const double> z_prev,
                                      std::span<double> z_next) const = 0;
  /// Coulomb friction coefficient μ ≥ 0.
  virtual double friction_coefficient() const = 0;
};

/// Shared last part of every law's step: the cap, the reset of the spring and the energy split above.
/// `previous` = F_prev (the committed spring force, rotated into the current plane), `trial` = F_tr, `k_store` the stiffness that defines U(F) = |F|²/(2 k_store) (0 allowed:
/// then U = 0), `stored_prev` = U_prev.
/// `switch_correction` = λ* e in force units (slip → stick inside the step, above; zero otherwise) is added to the
/// trial before the cap; generated_work stays that of the elastic trial.
TangentialResponse FinishTangentialStep(const Eigen::Vector3d& previous, const Eigen::Vector3d& trial,
                                        double k_store, double stored_prev, double mu, double normal_force,
                                        const Eigen::Vector3d& displacement_increment,
                                        const Eigen::Vector3d& switch_correction = Eigen::Vector3d::Zero());

/// The slider's travel λ* ≥ 0 before a slip → stick switch inside the step (above), from the excess rate G = h ṁ(0)
/// at the committed state and the end excess m₁ (same units, the law's): G²/(4(G − m₁)) if G > 0 and m₁ < G/2,
/// else 0 (no switch inside the step).
double SwitchSlip(double start_excess_rate_times_step, double end_excess);

/// One step of a contact whose model keeps the last committed (δ_n, elastic F_n) in its history: fills
/// k.delta_n_prev / k.normal_force_prev when the contact was already active; on the first in-contact step
/// (delta_prev ≤ 0) only the part of the increment after first touch (linear in δ) loads the spring.
/// Sets k.displacement_increment to the increment used and returns the law's response.
TangentialResponse EvaluateTangentialStep(const TangentialLaw& law, TangentialKinematics& k,
                                          Eigen::Vector3d displacement_increment, double delta_prev,
                                          double normal_force_prev, std::span<const double> z_prev,
                                          std::span<double> z_next);

/// The response of a contact at the configuration where its history `z` was committed: Δs = 0, the committed
/// overlap δ_n and the committed normal. A step there is the identity in exact arithmetic (the spring already lies
/// in the tangent plane and within the cap, and every stiffness ratio is 1), so F_t = F_prev = SpringForce(z, δ_n),
/// U_t = StoredEnergy(z, δ_n), no work of any kind, the cap not reported. EvaluateTangentialStep returns the same
/// force to round-off after a rotation, a cap and an energy split that change nothing (tests/contact/
/// tangential_laws_test.cpp checks this for every law). Models use it for the acceleration right after their
/// history update, so an explicit scheme runs the law once per contact and step [docs/theory.md §6, "The
/// committed configuration"].
TangentialResponse CommittedTangentialResponse(const TangentialLaw& law, std::span<const double> z, double delta_n);

}  // namespace impactlab
