// SpherePairImpact: two solid spheres (3D translation and rotation each) colliding, with Hertz normal contact,
// optional Tsuji normal damping and a history-dependent tangential law [Seed002 eqs. 5–7, 16–19, §2;
// docs/theory.md §1, §6; Chung & Ooi 2011 Tests 7–8].
//
// Generalized coordinates (as in SphereWallImpact):
//   q = [x₁, φ₁, x₂, φ₂]   centres [m] and accumulated rotation vectors φᵢ = ∫ωᵢ dt [rad]   (12 entries)
//   v = [v₁, ω₁, v₂, ω₂]   q̇ = v
// Isotropic inertia Iᵢ = 2/5 mᵢ Rᵢ² ⇒ ωᵢ is integrated directly (no gyroscopic term) and the contact does
// not depend on orientation. φᵢ is NOT an orientation; it is used only because the step increment
// Δφᵢ = φᵢ(t+h) − φᵢ(t) = ∫ωᵢ dt is exact, so the tangential displacement increment of a step is a function of
// the positions at its two ends (rollback-exact history, no extra ODE state).
//
// Sign convention. r = x₂ − x₁, d = |r|, n = r/d: the unit normal FROM sphere 1 TO sphere 2. The tangential
// law sees sphere 1 as its "wall" (body A) and sphere 2 as its "sphere" (body B): F_t is the tangential force
// ON SPHERE 2, −F_t acts on sphere 1.
//   overlap δ_n = R₁ + R₂ − d,   δ̇_n = −(v₂ − v₁)·n
//   contact point x_c = x₁ + a₁ n = x₂ − a₂ n with lever arms a₁ = R₁ − δ_n/2, a₂ = R₂ − δ_n/2
//   slip velocity of sphere 2's contact point relative to sphere 1's (derivation: v_cᵢ = vᵢ + ωᵢ × (x_c − xᵢ)):
//     v_s = P_t [ (v₂ + ω₂ × (−a₂ n)) − (v₁ + ω₁ × (a₁ n)) ] = P_t [ (v₂ − v₁) − (a₁ ω₁ + a₂ ω₂) × n ]
//   NOTE: the ω₁ term enters with a MINUS sign (ω₁ × R₁n is the velocity of sphere 1's point, subtracted);
//   check: two spheres spinning in the same sense (ω₁ = ω₂ = ω e_y, n = e_z) rub, v_s = −2Rω e_x ≠ 0.
//   The arms aᵢ = Rᵢ − δ_n/2 (not Rᵢ) make both torques act about the same point x_c, so that the total
//   angular momentum Σ(mᵢ xᵢ × vᵢ + Iᵢ ωᵢ) is exactly conserved: Σ torques = (d − a₁ − a₂) n × F = 0; the
//   power of the contact forces is then exactly −F_t·v_s − F_n δ̇_n (energy-consistent slip velocity).
// Forces:
//   F_n = K_H δ_n^{3/2} + C(δ_n) δ̇_n (unclipped, docs/theory.md §12.1), K_H = (4/3) E* √R*, R* = R₁R₂/(R₁+R₂),
//         1/E* = (1−ν₁²)/E₁ + (1−ν₂²)/E₂,  1/G* = (2−ν₁)/G₁ + (2−ν₂)/G₂ [Seed002 §2], Gᵢ = Eᵢ/(2(1+νᵢ)),
//         C = Tsuji α √(m* K_H) δ_n^{1/4}, α = √5 ξ_L(e_n) (restitution_calibration.h), m* = m₁m₂/(m₁+m₂)
//   F = F_n n + F_t on sphere 2, −F on sphere 1;  τ₂ = (−a₂ n) × F_t,  τ₁ = (a₁ n) × (−F_t)
//   F_t from the TangentialLaw (capped by μ times the ELASTIC normal force, SphereContactModel).
// Tangential displacement increment of a step from the committed state (r⁰, φᵢ⁰, δ⁰) to the state (r, φᵢ, δ)
// (midpoint rule of ∫v_s dt; exact increments of r and φ):
//   Δs = P_t(n) [ (r − r⁰) − (ā₁ Δφ₁ + ā₂ Δφ₂) × n̄ ],  n̄ = (n + n⁰)/|n + n⁰|, āᵢ = Rᵢ − (δ + δ⁰)/4.
// Second-order consistent with v_s; its deviation from ∫v_s dt is part of the integration residual.
//
// History z (exact rollback; UpdateHistory is the only writer):
//   [0..2] r at the last committed step, [3..5] φ₁ there, [6..8] φ₂ there, [9..12] the contact's books
//   (SphereContactModel: δ_n and elastic F_n there, friction work W_f, generated work W_g), [13..] the tangential
//   law's history.
// Rigid frictional contact (SphereContactModel, system/frictional_contact_structure.h): g = |r| − R₁ − R₂ and, on
// (v₁, ω₁, v₂, ω₂), with the tangent basis t₁ = P_t e_x/|P_t e_x| (P_t e_y if e_x is within 60° of ±n), t₂ = n × t₁,
//   normal row    [ −nᵀ   0ᵀ           nᵀ   0ᵀ          ]     u_n = n·(v₂ − v₁) = ġ
//   tangent row k [ −t_kᵀ −R₁(n × t_k)ᵀ  t_kᵀ −R₂(n × t_k)ᵀ ]     u_t = t·[(v₂ − v₁) − (R₁ω₁ + R₂ω₂) × n]
// (the slip velocity above at δ_n = 0), Ḣ_n = [−ṅᵀ 0 ṅᵀ 0], ṅ = (ṙ − n(n·ṙ))/|r|.
// Energy ledger (SphereContactModel): E = Σ(½mᵢvᵢ² + ½Iᵢωᵢ²) + W_n(δ_n) + U_t;  D = ∫C δ̇_n² dt + W_f.
#pragma once

#include <memory>

#include "contact/contact_law.h"
#include "contact/tangential/tangential_law.h"
#include "models/sphere_contact_model.h"

namespace impactlab {

struct SpherePairImpactParameters {
  double radius1 = 0.1, radius2 = 0.1;          ///< Rᵢ [m] > 0
  double density1 = 2700.0, density2 = 2700.0;  ///< ρᵢ [kg/m³] > 0
  double E1 = 7.0e10, E2 = 7.0e10;              ///< [Pa] > 0
  double nu1 = 0.33, nu2 = 0.33;                ///< [-] in [0, 0.5)
  /// Initial velocities in the frame where n(0) = e_z (sphere 1 below the origin, sphere 2 above) [m/s].
  double v1_n = 0.2;   ///< sphere 1 along +e_z (towards sphere 2)
  double v2_n = 0.2;   ///< sphere 2 along −e_z (towards sphere 1)
  double v1_t = 0.0, v2_t = 0.0;  ///< along +e_x
  Eigen::Vector3d omega1 = Eigen::Vector3d::Zero(), omega2 = Eigen::Vector3d::Zero();  ///< [rad/s]
  double e_n = 1.0;             ///< target normal restitution in (0, 1]
  double initial_gap = 0.0;     ///< surface gap at t = 0 [m] ≥ 0

  void Validate() const;
  double mass1() const;
  double mass2() const;
  double inertia1() const;              ///< 2/5 m₁ R₁²
  double inertia2() const;
  double reduced_mass() const;          ///< m* = m₁m₂/(m₁+m₂)
  double effective_radius() const;      ///< R* = R₁R₂/(R₁+R₂)
  double effective_modulus() const;     ///< E* [Pa]
  double effective_shear_modulus() const;  ///< G* [Pa]
  double hertz_coefficient() const;     ///< K_H = 4/3 E* √R*
  double approach_speed() const;        ///< v₁_n + v₂_n (normal relative speed before impact) [m/s]
};

/// The contact at one state, with the pair's normal and lever arms (tangential force on sphere 2).
struct SpherePairContact : SphereContact {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  ///< n (sphere 1 → sphere 2)
  double arm1 = 0.0, arm2 = 0.0;                       ///< a₁, a₂ [m]
};

class SpherePairImpact final : public SphereContactModel {
 public:
  static constexpr int kRPrev = 0, kPhi1Prev = 3, kPhi2Prev = 6, kBooks = 9, kLaw = 13;
  static constexpr int kDeltaNPrev = kBooks + kBookDeltaN, kFnPrev = kBooks + kBookNormalForce,
                       kFrictionWork = kBooks + kBookFrictionWork, kGeneratedWork = kBooks + kBookGeneratedWork;
  // Layout of q and v.
  static constexpr int kX1 = 0, kPhi1 = 3, kX2 = 6, kPhi2 = 9;

  /// Hertz (E*, R*) ⊕ Tsuji damping calibrated to e_n (none for e_n = 1) ⊕ the tangential law `law`.
  SpherePairImpact(SpherePairImpactParameters parameters, std::shared_ptr<const TangentialLaw> law);
  /// Any contact law of the seam (normal ⊕ damping ⊕ tangential, e.g. from the registries); it must have a
  /// tangential part (use μ = 0 for frictionless contact).
  SpherePairImpact(SpherePairImpactParameters parameters, ContactLaw contact);

  std::string name() const override { return "sphere_pair"; }
  MechanicalState InitialState() const override;
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  void UpdateHistory(const MechanicalState& before, MechanicalState& after) const override;

  /// Δt_crit estimate for explicit schemes (docs/reliability.md, "Numerical guards").
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;
  std::optional<double> ContactSize(int contact) const override;

  /// P = m₁v₁ + m₂v₂ (isolated system).
  std::optional<Eigen::Vector3d> LinearMomentum(const MechanicalState& s) const override;
  /// L = Σ (mᵢ xᵢ × vᵢ + Iᵢ ωᵢ) about the origin.
  std::optional<Eigen::Vector3d> AngularMomentum(const MechanicalState& s) const override;
  /// Σ mᵢ|vᵢ|.
  std::optional<double> LinearMomentumScale(const MechanicalState& s) const override;
  /// Σ (mᵢ |xᵢ − x_G| |vᵢ| + Iᵢ|ωᵢ|).
  std::optional<double> AngularMomentumScale(const MechanicalState& s) const override;

  std::vector<std::string> ObservableNames() const override;
  void Observe(const MechanicalState& s, std::vector<double>& values) const override;

  // --- energy-consistent schemes (system/discrete_contact_system.h) ---------------------------------
  // Step r₀ → r₁ (r = x₂ − x₁), r̄ = (|r₀| + |r₁|)/2, r_m = (r₀ + r₁)/2, n̄ = r_m/|r_m|:
  //   normal (quotient forms):  ∇̄_r δ = −r_m/r̄ (Greenspan 1984: ∇̄δ·Δr = Δδ exactly), force s_n r_m/r̄ on sphere 2
  //   normal (Cartesian form):  Gonzalez's DG of W(δ(r)) in r: −W'(δ(r_m)) n̄ + c Δr (not central)
  //   normal (midpoint form):   W'(δ(r_m)) n̄
  //   tangential: Δs = P̄ [Δr − (ā₁Δφ₁ + ā₂Δφ₂) × n̄],  P̄ = I − n̄n̄ᵀ,  āᵢ = Rᵢ − (R₁ + R₂ − |r_m|)/2,
  //     so ā₁ + ā₂ = |r_m|: f̄_t on sphere 2, −f̄_t on sphere 1, torques −āᵢ n̄ × f̄_t; the moment of the pair
  //     about any point vanishes at r_m, so a midpoint step conserves L = Σ(mᵢxᵢ×vᵢ + Iᵢωᵢ) exactly (and P).
  Eigen::VectorXd DiscreteMassDiagonal() const override;
  void WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const override;
  void EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                            DiscreteGradientForm form, DiscreteContactStep& out) const override;

  void DeclareFrictionalContact(int contact, const Eigen::VectorXd& q, double& gap,
                                Eigen::MatrixXd& jacobian) const override;
  Eigen::VectorXd NormalJacobianRate(int contact, const Eigen::VectorXd& q, const Eigen::VectorXd& v) const override;
  /// e_n, the restitution the compliant law is calibrated to (Newton's law of the nonsmooth schemes without e).
  std::optional<double> CalibratedRestitution() const override { return p_.e_n; }

  /// δ_n(q) = R₁ + R₂ − |x₂ − x₁|.
  double Overlap(const Eigen::VectorXd& q) const override;
  /// δ̇_n = −(v₂ − v₁)·n.
  double OverlapRate(const MechanicalState& s) const override;
  double TranslationalKineticEnergy(const MechanicalState& s) const override;  ///< Σ ½ mᵢ|vᵢ|²
  double RotationalKineticEnergy(const MechanicalState& s) const override;     ///< Σ ½ Iᵢ|ωᵢ|²

  /// Contact forces at s with the committed history (pure; the law's new history to law_history_out if given).
  SpherePairContact EvaluateContact(const MechanicalState& s, std::span<double> law_history_out = {},
                                    const TangentialStartRates* start = nullptr) const;
  /// n(q) = (x₂ − x₁)/|x₂ − x₁|.
  Eigen::Vector3d Normal(const Eigen::VectorXd& q) const;
  /// Slip velocity v_s (sphere 2's contact point relative to sphere 1's) [m/s].
  Eigen::Vector3d SlipVelocity(const MechanicalState& s) const;

  const SpherePairImpactParameters& parameters() const { return p_; }

 private:
  SpherePairImpactParameters p_;
  double m1_, m2_, i1_, i2_;
};

}  // namespace impactlab
