// ContactLaw: the one contact seam of impactlab — a normal elastic law ⊕ a normal damping law ⊕ an optional
// tangential (friction) law, composed by role as in LAMMPS `pair granular` and Yade's Law2 functors, evaluated on
// one ContactKinematics value that the model's geometry produces. Laws know nothing about models or integrators.
//
// Continuous evaluation (explicit schemes, ODE solvers; docs/theory.md §1, §3, §6):
//   F_n = W'(δ) + C(δ) δ̇                      normal force on body B along n [N], compressive > 0, never clipped
//   F_t = tangential law step from the committed history z (cap μ W'(δ), the elastic normal force)
//   P_diss = C(δ) δ̇²                           damping power [W]
//
// Discrete (two-configuration) evaluation for the energy-consistent schemes, over one step δ₀ → δ₁ of length h
// with the tangential increment Δs of the step [Simo & Tarnow 1992; Gonzalez 1996; Bravo & Pérez-Aparicio
// (Seed003) eqs. 5–8; docs/theory.md §7]:
//   s_n = W̄'(δ₀, δ₁) + c̄(δ₀, δ₁) Δδ/h          algorithmic normal force (quotient form), with
//         W̄' = (W(δ₁) − W(δ₀))/Δδ,  c̄ = (Φ(δ₁) − Φ(δ₀))/Δδ  (→ W'(δ̄), C(δ̄) when Δδ → 0; DiscreteDerivative)
//   s_n = W'(δ̄) + C(δ̄) Δδ/h                    midpoint form (implicit midpoint rule), δ̄ = (δ₀ + δ₁)/2
//   f̄_t = ½ (F_prev + F_t)                    algorithmic tangential force (trapezoidal: the force whose work
//                                               the tangential law books, tangential_law.h)
// so that, when the model applies s_n along a discrete gradient ∇̄δ (∇̄δ·Δq = Δδ) and f̄_t along a discrete
// tangential map Ḡ (ḠΔq = Δs), the kinetic energy of a midpoint step changes by exactly
//   ΔK = −s_n Δδ + f̄_t·Δs = −ΔW − D_n − ΔU_t − W_f + W_g        (quotient form)
// with D_n = c̄ Δδ²/h ≥ 0 (damping), W_f ≥ 0 the friction (slip) work and W_g the energy the tangential law
// itself creates (signed; non-zero for the Mindlin integral laws, docs/theory.md §6 "Energy bookkeeping").
// History (the tangential law's spring) lives in the state's z, never in the law.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <span>
#include <string>

#include "contact/damping/damping_law.h"
#include "contact/normal_contact_law.h"
#include "contact/tangential/tangential_law.h"

namespace impactlab {

/// How a scheme discretizes the normal force over a step (the tangential force is always the trapezoidal f̄_t).
enum class DiscreteGradientForm {
  kMidpoint,           ///< W'(δ̄), C(δ̄): implicit midpoint rule (not energy-consistent for non-quadratic W)
  kGapQuotient,        ///< difference quotients in the gap δ (Simo–Tarnow, Greenspan, EFDA)
  kInvariantQuotient,  ///< difference quotients in the invariant C = |x_b − x_a|² (Gonzalez 1996) where the
                       ///< geometry has one; in the gap otherwise
  kCartesian,          ///< Gonzalez's Cartesian discrete gradient of the contact potential in the body coordinates
};

/// What a contact law sees of one contact at one configuration (produced by the model's geometry).
struct ContactKinematics {
  double overlap = 0.0;        ///< δ [m], > 0 in contact
  double overlap_rate = 0.0;   ///< δ̇ [m/s]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();                ///< n, unit, body A → body B
  Eigen::Vector3d tangential_increment = Eigen::Vector3d::Zero();   ///< Δs since the committed step [m]
  double overlap_prev = 0.0;       ///< δ at the committed step (≤ 0: the contact starts in this step) [m]
  double normal_force_prev = 0.0;  ///< elastic W'(δ) at the committed step [N]
  /// Rates at the committed step and the step length, for the tangential law's slip → stick switch inside the
  /// step (contact/tangential/tangential_law.h); step = 0: not known, the one-step return mapping.
  TangentialStartRates start_rates;
};

/// Continuous response (one configuration).
struct ContactResponse {
  bool active = false;
  double elastic_normal_force = 0.0;  ///< W'(δ) [N]
  double normal_force = 0.0;          ///< W'(δ) + C(δ) δ̇ [N]
  double dissipation_power = 0.0;     ///< C(δ) δ̇² [W]
  TangentialResponse tangential;      ///< zero when the law has no tangential part
  Eigen::Vector3d tangential_increment = Eigen::Vector3d::Zero();  ///< Δs the tangential law used [m]
};

/// Discrete response (one step δ₀ → δ₁).
struct DiscreteContactResponse {
  double normal_force = 0.0;             ///< s_n [N] (elastic part + damping_force)
  double damping_force = 0.0;            ///< its damping part c Δδ/h [N]
  double normal_force_derivative = 0.0;  ///< ∂s_n/∂δ₁ [N/m] (for Newton; the tangential part is not included)
  double elastic_normal_force = 0.0;     ///< W'(δ₁) [N] (the history's F_n)
  double damping_work = 0.0;             ///< D_n over the step [J], ≥ 0 for C ≥ 0
  double energy_scale = 0.0;             ///< |W(δ₀)| + |W(δ₁)| + … (round-off scale of the quotient) [J]
  Eigen::Vector3d tangential_force = Eigen::Vector3d::Zero();      ///< f̄_t on body B [N]
  Eigen::Vector3d tangential_increment = Eigen::Vector3d::Zero();  ///< Δs the tangential law used [m]
  TangentialResponse tangential;         ///< the law's step (friction / generated work, stored energy)
};

class ContactLaw;

/// What ContactLaw::EvaluateDiscrete may keep between calls for one contact within one step. The normal part of a
/// discrete response (s_n, its damping part and derivative, W'(δ₁), D_n, the round-off scale) is a function of
/// (δ₀, δ₁, h, form) alone, and the committed elastic force W'(δ_prev) of δ_prev alone: a forward-difference Jacobian
/// that probes a contact's rotation coordinates (system/contact_block_difference.h) leaves both overlaps unchanged,
/// so the probes reuse them instead of evaluating the laws again. The memo keeps the first evaluation made with it
/// (the block's base point, which every rotation probe shares; a position probe between them does not replace it).
/// Keys are compared bit for bit, so a reused value is the one a fresh evaluation would give. One memo per contact and
/// thread; a default-constructed memo holds nothing.
struct DiscreteNormalMemo {
  bool normal_valid = false;
  double delta0 = 0.0, delta1 = 0.0, h = 0.0;
  DiscreteGradientForm form = DiscreteGradientForm::kMidpoint;
  DiscreteContactResponse normal;  ///< only its normal fields are read
  bool committed_valid = false;
  double delta_prev = 0.0, committed_force = 0.0;
};

/// The classical DEM sphere contact: Hertz W = (2/5) k δ^{5/2} ⊕ Tsuji damping calibrated to e_n (α = √5 ξ_L(e_n),
/// bound to `mass`; no damping for e_n = 1) ⊕ `tangential` [Tsuji et al. 1992; Seed002 eqs. 5–7].
ContactLaw HertzTsujiContactLaw(double hertz_coefficient, double e_n, double mass,
                                std::shared_ptr<const TangentialLaw> tangential);
/// The contact's tangential law, checked: present and with at most `max_history` history entries.
const std::shared_ptr<const TangentialLaw>& RequireTangentialLaw(const ContactLaw& law, int max_history);
/// f̄_t = ½ φ (F_prev + F_t): the algorithmic tangential force of the energy-consistent schemes for the tangential
/// law's step `r` (the force whose work over the step the law books, f̄_t·Δs = −work_in), φ = 1, or on the step where
/// the contact starts (overlap_prev ≤ 0 < overlap) the in-contact fraction overlap/(overlap − overlap_prev) of Δs
/// that loaded the spring (EvaluateTangentialStep), since the force is applied along the whole Δs.
Eigen::Vector3d AlgorithmicTangentialForce(const TangentialResponse& r, double overlap_prev, double overlap);

class ContactLaw {
 public:
  /// `elastic` and `damping` are required; `tangential` may be null (frictionless contact).
  ContactLaw(std::shared_ptr<const NormalContactLaw> elastic, std::shared_ptr<const DampingLaw> damping,
             std::shared_ptr<const TangentialLaw> tangential = nullptr);

  const NormalContactLaw& elastic() const { return *elastic_; }
  const DampingLaw& damping() const { return *damping_; }
  const TangentialLaw* tangential() const { return tangential_.get(); }
  const std::shared_ptr<const TangentialLaw>& tangential_ptr() const { return tangential_; }
  /// False when the damping law is "none" (C ≡ 0): forces then do not depend on the velocity.
  bool damped() const { return damped_; }
  bool has_friction() const { return tangential_ != nullptr; }
  /// Size of the tangential law's history slice of z (0 without friction).
  int history_size() const { return tangential_ ? tangential_->history_size() : 0; }
  std::string description() const;

  /// W(δ) + U_t(z, δ) [J].
  double StoredEnergy(double delta, std::span<const double> z) const;
  /// Continuous response; writes the tangential law's new history to z_next.
  ContactResponse Evaluate(const ContactKinematics& k, std::span<const double> z_prev,
                           std::span<double> z_next) const;
  /// Discrete response of a step of length h from overlap δ₀ (committed) to k1 (end of step, with its Δs);
  /// writes the tangential law's new history to z_next.
  /// `memo` (optional): the normal part is taken from it when its key is bitwise (δ₀, δ₁, h, form), else evaluated
  /// (and stored in it if it holds nothing yet: DiscreteNormalMemo).
  DiscreteContactResponse EvaluateDiscrete(double delta0, const ContactKinematics& k1, double h,
                                           DiscreteGradientForm form, std::span<const double> z_prev,
                                           std::span<double> z_next, DiscreteNormalMemo* memo = nullptr) const;
  /// The elastic force W'(δ_prev) at the committed overlap (ContactKinematics::normal_force_prev), 0 for δ_prev ≤ 0;
  /// taken from `memo` when it holds bitwise this δ_prev, else evaluated (and stored in it if it holds none yet).
  double CommittedElasticForce(double delta_prev, DiscreteNormalMemo* memo = nullptr) const;

 private:
  /// The normal fields of a discrete response (EvaluateDiscrete's header comment), written into r.
  void EvaluateDiscreteNormal(double delta0, double delta1, double h, DiscreteGradientForm form,
                              DiscreteContactResponse& r) const;
  TangentialResponse TangentialStep(const ContactKinematics& k, double elastic_force_end,
                                    std::span<const double> z_prev, std::span<double> z_next,
                                    Eigen::Vector3d& increment_used) const;
  std::shared_ptr<const NormalContactLaw> elastic_;
  std::shared_ptr<const DampingLaw> damping_;
  std::shared_ptr<const TangentialLaw> tangential_;
  bool damped_ = true;
};

}  // namespace impactlab
