// SphereWallImpact: a solid sphere (3D translation and rotation) hitting a fixed flat wall, with Hertz normal
// contact, optional Tsuji normal damping and a history-dependent tangential law [Seed002 eqs. 5–7, 16–19;
// docs/theory.md §1, §6].
//
// Frame: the wall is the plane z = 0 with unit normal n = e_z (wall → sphere). t = e_x is the direction
// of the initial tangential velocity; ω is about b = e_y for a planar impact.
//   q = [x, y, z, φ_x, φ_y, φ_z]   centre position [m] and the accumulated rotation vector φ = ∫ω dt [rad]
//   v = [v_x, v_y, v_z, ω_x, ω_y, ω_z]   q̇ = v
// A sphere's inertia is isotropic (I = 2/5 m R²), so ω is integrated directly (no gyroscopic term) and its
// contact geometry does not depend on orientation: φ is NOT an orientation (rotations do not add as
// vectors); it is only used because, against a flat wall with fixed n, the tangential displacement of the
// contact point relative to the wall is an exact function of q:
//   s(q) = P_t (x − R φ × n),   ṡ = P_t (v + ω × r) = v_s (slip velocity),  r = −R n (centre → contact point)
// Overlap δ_n = R − z, δ̇_n = −v_z.
//   F_n, F_t and the energy ledger as in SphereContactModel (models/sphere_contact_model.h): Hertz K_H δ_n^{3/2},
//         K_H = (4/3) E* √R, Tsuji damping with α = √5 ξ_L(e_n) (restitution_calibration.h; none for e_n = 1), F_t capped by μ K_H δ_n^{3/2}
//   m v̇ = F_n n + F_t,   I ω̇ = r × F_t
// Moduli [Seed002 §2]: 1/E* = (1−ν_s²)/E_s + (1−ν_w²)/E_w, 1/G* = (2−ν_s)/G_s + (2−ν_w)/G_w,
// G = E/(2(1+ν)); a rigid wall drops its term (E* = E_s/(1−ν_s²), G* = G_s/(2−ν_s)).
//
// Rigid frictional contact (SphereContactModel, system/frictional_contact_structure.h): g = z − R and, in the
// frame (n, t₁, t₂) = (e_z, e_x, e_y),
//   H = [ 0 0 1   0  0 0 ]      u_n  = v_z
//       [ 1 0 0   0 −R 0 ]      u_t1 = v_x − R ω_y
//       [ 0 1 0   R  0 0 ]      u_t2 = v_y + R ω_x      (constant: Ḣ = 0)
//
// History z (exact rollback; UpdateHistory is the only writer):
//   [0..2] s at the last committed step, [3..6] the contact's books (SphereContactModel: δ_n and elastic F_n
//   there, friction work W_f, generated work W_g), [7..9] s at first touch, [10..] the tangential law's history.
#pragma once

#include <memory>

#include "contact/contact_law.h"
#include "contact/tangential/tangential_law.h"
#include "models/sphere_contact_model.h"

namespace impactlab {

struct SphereWallImpactParameters {
  double radius = 2.5e-3;       ///< R [m] > 0
  double density = 4000.0;      ///< ρ [kg/m³] > 0
  double E_sphere = 3.8e11;     ///< [Pa] > 0
  double nu_sphere = 0.23;      ///< [-] in [0, 0.5)
  double E_wall = 7.0e10;       ///< [Pa] > 0 (ignored for a rigid wall)
  double nu_wall = 0.25;        ///< [-] in [0, 0.5)
  bool rigid_wall = false;
  double theta_deg = 0.0;       ///< impact angle from the wall normal [deg] in [0, 90); Seed002's γ = 180° − θ
  double speed = 3.9;           ///< |v| before impact [m/s] > 0
  double omega0 = 0.0;          ///< initial spin ω_y [rad/s] (about e_y; + spins the contact point towards −x)
  double omega0_x = 0.0;        ///< initial spin ω_x [rad/s] (side spin: slip along ±y, a 3D impact)
  double omega0_z = 0.0;        ///< initial spin ω_z [rad/s] (about the normal: no slip at the contact point)
  double e_n = 1.0;             ///< target normal restitution in (0, 1]
  double initial_gap = 0.0;     ///< [m] ≥ 0

  void Validate() const;
  double mass() const;
  double inertia() const;            ///< 2/5 m R²
  double effective_modulus() const;  ///< E* [Pa]
  double effective_shear_modulus() const;  ///< G* [Pa]
  double hertz_coefficient() const;  ///< K_H = 4/3 E* √R
  double normal_speed() const;       ///< v cos θ
  double tangential_speed() const;   ///< v sin θ
};

class SphereWallImpact final : public SphereContactModel {
 public:
  static constexpr int kSPrev = 0, kBooks = 3, kSStart = 7, kLaw = 10;
  static constexpr int kDeltaNPrev = kBooks + kBookDeltaN, kFnPrev = kBooks + kBookNormalForce,
                       kFrictionWork = kBooks + kBookFrictionWork, kGeneratedWork = kBooks + kBookGeneratedWork;

  /// Hertz (E*, R*) ⊕ Tsuji damping calibrated to e_n (none for e_n = 1) ⊕ the tangential law `law`.
  SphereWallImpact(SphereWallImpactParameters parameters, std::shared_ptr<const TangentialLaw> law);
  /// Any contact law of the seam (normal ⊕ damping ⊕ tangential, e.g. from the registries); it must have a
  /// tangential part (use μ = 0 for frictionless contact).
  SphereWallImpact(SphereWallImpactParameters parameters, ContactLaw contact);

  std::string name() const override { return "sphere_wall"; }
  MechanicalState InitialState() const override;
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  void UpdateHistory(const MechanicalState& before, MechanicalState& after) const override;
  /// One switch function, the stick → slip switch of the tangential spring: g = 1 − |F_tr|/(μ F_n), the relative
  /// cap margin of the trial force UpdateHistory(step_start, s) would commit (TangentialResponse::cap_margin);
  /// g > 0 sticking, g < 0 slipping, 1 out of contact or without a stick branch (μ F_n = 0).
  int num_switches() const override { return 1; }
  void SwitchFunctions(const MechanicalState& step_start, const MechanicalState& s, std::span<double> g) const override;

  /// Δt_crit estimate for explicit schemes (docs/reliability.md, "Numerical guards").
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;
  std::optional<double> ContactSize(int contact) const override;

  std::vector<std::string> ObservableNames() const override;
  void Observe(const MechanicalState& s, std::vector<double>& values) const override;

  // --- energy-consistent schemes (system/discrete_contact_system.h) ---------------------------------
  // The wall gap δ = R − z and the surface displacement s(q) = P_t(x − R φ × n) are affine in q, so their
  // discrete gradients are exact: ∇̄δ = −e_z, Ḡ Δq = s(q₁) − s(q₀) = Δs. F̄ = −(s_n n + f̄_t, r × f̄_t), r = −R n.
  Eigen::VectorXd DiscreteMassDiagonal() const override;
  void WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const override;
  void EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                            DiscreteGradientForm form, DiscreteContactStep& out) const override;

  void DeclareFrictionalContact(int contact, const Eigen::VectorXd& q, double& gap,
                                Eigen::MatrixXd& jacobian) const override;
  Eigen::VectorXd NormalJacobianRate(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  /// e_n, the restitution the compliant law is calibrated to (Newton's law of the nonsmooth schemes without e).
  std::optional<double> CalibratedRestitution() const override { return p_.e_n; }

  /// δ_n(q) = R − z.
  double Overlap(const Eigen::VectorXd& q) const override;
  /// δ̇_n = −v_z.
  double OverlapRate(const MechanicalState& s) const override;
  double TranslationalKineticEnergy(const MechanicalState& s) const override;  ///< ½ m |v|²
  double RotationalKineticEnergy(const MechanicalState& s) const override;     ///< ½ I |ω|²

  /// Contact forces at s with the committed history (pure; the law's new history to law_history_out if given).
  SphereContact EvaluateContact(const MechanicalState& s, std::span<double> law_history_out = {},
                                const TangentialStartRates* start = nullptr) const;
  /// Tangential displacement of the contact point relative to the wall, s(q) [m].
  Eigen::Vector3d SurfaceDisplacement(const Eigen::VectorXd& q) const;
  /// Slip velocity v_s = P_t(v + ω × r) [m/s].
  Eigen::Vector3d SlipVelocity(const MechanicalState& s) const;

  const SphereWallImpactParameters& parameters() const { return p_; }

 private:
  /// The contact at after.q with the history committed at `before` and `before`'s rates over (before.t, after.t]:
  /// the evaluation UpdateHistory commits and SwitchFunctions reads; the law's new history is written to z
  /// (a copy of before.z on entry).
  SphereContact ContactSinceStepStart(const MechanicalState& before, const MechanicalState& after,
                                      Eigen::VectorXd& z) const;

  SphereWallImpactParameters p_;
  double mass_, inertia_;
};

}  // namespace impactlab
