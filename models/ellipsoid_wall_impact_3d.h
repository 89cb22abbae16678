// EllipsoidWallImpact3D: the full 3D rigid ellipsoid hitting a rigid flat wall, ECC Model I (W = K_n V_c) with
// contact-centric viscous damping [Seed000 eqs. (7)–(12), (33), (35)–(43); docs/theory.md §2.1, §3, §4], optional
// gravity and optional friction from a tangential law (docs/rotation.md §7). Without them (the defaults) it is
// Seed000's frictionless impact, the same physics as the planar EllipsoidWallImpact without the planar restriction.
//
//   q = (x_G [3], quaternion (w, x, y, z) [4])   body → world rotation R(q̂), q̂ = q/|q| (renormalized)
//   v = (v_G [3], Ω [3])                         Ω = body-frame angular velocity [rad/s]
//   ẋ_G = v_G,  q̇ = ½ q ⊗ (0, Ω)                 (PositionRate; N(q) ≠ I, so not a ConstantMassSystem)
//   m v̇ = F,    I_b Ω̇ = Rᵀ τ − Ω × I_b Ω         (Euler's equations, gyroscopic term included)
//   I_b = m/5 diag(b² + c², a² + c², a² + b²)
//   F = (K_n S_n − η v_cn) n at the section centroid x̄;  τ = (x̄ − x_G) × F;  v_cn = n·(v_G + ω × r), ω = RΩ
//   η = 2ξ_L(e_cn)√(m_n* k_eff) (adaptive) or with a fixed mass, m_n* = (nᵀ M_eff⁻¹ n)⁻¹ with r = x̄ − x_G
//   E = ½ m|v|² + ½ Ωᵀ I_b Ω + K_n V_c + m g z_G + U_t,  P_diss = η v_cn² (the dashpot; friction is booked in z)
// Gravity g [m/s²] along −z: the potential m g z_G is part of V (ConservativeLoad), so the rotation scheme's
// discrete gradient keeps it exact. Friction (models/ellipsoid_wall_friction.h: a registered tangential law, μ,
// R* = ρ_G at first touch, history in z): F_t acts at the contact point x̄ (the section centroid), lever
// r = x̄ − x_G; the slip velocity is P_t(v_G + ω × r), P_t = 1 − n nᵀ. The slip increment of a step from
// (x_a, R_a) to (x_b, R_b = R_a cay(θ̂)) is the discrete slip map
//   Δs = P_t (Δx + (R_m θ) × r_m),   R_m = R_a cay(θ̂/2), r_m the lever at the midpoint (x_a + Δx/2, R_m)
// (= h · slip velocity at the midpoint + O(h³)), linear in ξ = (Δx, θ) at the midpoint configuration, with the
// transpose (F, τ_body) = (P_t f, R_mᵀ(r_m × P_t f)). The explicit and ODE schemes commit the law's step through
// UpdateHistory (Δs from the configuration committed in z to the new one) and see the capped spring force F_t of
// the committed history; lie_poisson_midpoint takes f̄_t through DiscreteTangentialLoad on the scheme's own ξ.
// Energy books: E + D_n + W_f − W_g constant (D_n the dashpot work in MechanicalState::dissipated, W_f and W_g in z).
// Wall z = 0, n = e_z. Contact event function δ with the exact rate δ̇ = −n·(v_G + ω × r_s) (r_s: support
// point), = −v_cn at δ = 0. The damper is active for δ ≥ 0 (docs/theory.md §12.2). Initial orientation
// R₀ = R_x(tilt) R_y(θ) (θ about +y as in the planar model, then a tilt about +x).
// A RigidBodySystem (system/rigid_body_system.h), so the rotation scheme lie_poisson_midpoint runs it with the
// energy balance exact (docs/rotation.md §6).
#pragma once

#include <Eigen/Geometry>

#include "contact/damping/contact_centric_damping.h"
#include <memory>

#include "contact/ecc_volume_law.h"
#include "geometry/ellipsoid_plane_contact.h"
#include "models/ellipsoid_wall_friction.h"
#include "system/rigid_body_system.h"

namespace impactlab {

struct EllipsoidWall3DParameters {
  EllipsoidShape shape{Eigen::Vector3d(1.0, 0.6, 0.6)};  ///< (a, b, c) [m]
  double mass = 1.0;                                     ///< m [kg] > 0
  double theta_deg = 30.0;                               ///< rotation about +y [deg], [−180, 180]
  double tilt_deg = 0.0;                                 ///< then rotation about +x [deg], [−180, 180]
  Eigen::Vector3d velocity{0.0, 0.0, -1.5};              ///< v_G [m/s]; v_z < 0
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  ///< ω, WORLD frame [rad/s]
  double gap = 0.0;                                      ///< initial clearance [m] ≥ 0
  double K_n = 1e3;                                      ///< [Pa] > 0
  double e_cn = 1.0;                                     ///< (0, 1]
  DampingMassMode damping = DampingMassMode::kAdaptive;
  double gravity = 0.0;                                  ///< g [m/s²] ≥ 0, along −z
  void Validate() const;
  Eigen::Vector3d body_inertia() const;  ///< diagonal of I_b [kg·m²]
  Eigen::Matrix3d initial_rotation() const;
};

struct EllipsoidWall3DContactState {
  EllipsoidPlaneGeometry geometry;
  EccVolumeResponse response;
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d lever = Eigen::Vector3d::Zero();  ///< x̄ − x_G (support point when separated) [m]
  double m_n_star = 0.0, k_eff = 0.0, eta = 0.0;
};

class EllipsoidWallImpact3D final : public RigidBodySystem {
 public:
  /// `friction` null: frictionless (Seed000).
  explicit EllipsoidWallImpact3D(EllipsoidWall3DParameters parameters,
                                 std::shared_ptr<const EllipsoidWallFriction> friction = nullptr);

  std::string name() const override { return "ellipsoid_wall_3d"; }
  MechanicalState InitialState() const override;
  void PositionRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> q_dot) const override;
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  bool velocity_dependent_forces() const override { return true; }  // gyroscopic term, damping
  void NormalizeCoordinates(MechanicalState& s) const override;
  double KineticEnergy(const MechanicalState& s) const override;
  double PotentialEnergy(const MechanicalState& s) const override;
  double DissipationPower(const MechanicalState& s) const override;
  /// T, stored {contact (K_n V_c), gravity (m g z_G), tangential_elastic (U_t)}, dashpot work, W_f, W_g; the base
  /// books (one "potential") without friction and gravity.
  EnergyTerms EnergyBooks(const MechanicalState& s) const override;
  /// Commits the tangential law's step from the configuration in before.z to after.q (no-op without friction).
  void UpdateHistory(const MechanicalState& before, MechanicalState& after) const override;
  int num_contacts() const override { return 1; }
  /// Δt_crit estimate for explicit schemes (docs/reliability.md, "Numerical guards").
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;
  std::optional<double> ContactSize(int contact) const override;
  void ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                       std::span<double> overlap_rate) const override;
  std::vector<std::string> ObservableNames() const override;
  void Observe(const MechanicalState& s, std::vector<double>& values) const override;

  // RigidBodySystem (the rotation scheme with contact, docs/rotation.md §6): V = K_n V_c, (F_c, τ_c) the ECC
  // force and torque (their exact gradient, ecc_volume_law.h), (F_d, τ_d) the contact-centric damper.
  double Mass() const override { return p_.mass; }
  Eigen::Vector3d PrincipalMoments() const override { return inertia_; }
  RigidBodyLoad ConservativeLoad(const Eigen::Vector3d& centre, const Eigen::Matrix3d& rotation) const override;
  RigidBodyDissipativeLoad DissipativeLoad(const Eigen::Vector3d& centre, const Eigen::Matrix3d& rotation,
                                           const Eigen::Vector3d& velocity,
                                           const Eigen::Vector3d& omega_body) const override;
  /// Ḡᵀ f̄_t of the step with the slip map above and the law's books (docs/rotation.md §7).
  RigidBodyTangentialLoad DiscreteTangentialLoad(const MechanicalState& before, const RigidBodyStepGeometry& step,
                                                 Eigen::VectorXd& z_next) const override;

  /// Δs = P_t (Δx + (R_m θ) × r_m) from (x_a, R_a) by (Δx, θ) (the slip map above) [m]; `lever_mid` receives r_m.
  Eigen::Vector3d SlipIncrement(const Eigen::Vector3d& dx, const Eigen::Vector3d& theta,
                                const Eigen::Vector3d& centre_mid, const Eigen::Matrix3d& rotation_mid,
                                Eigen::Vector3d* lever_mid = nullptr) const;
  /// The continuous friction force F_t on the body at state s (committed history, slip from the configuration in
  /// z) [N]; zero without friction or out of contact.
  Eigen::Vector3d TangentialForce(const MechanicalState& s) const;
  const EllipsoidWallFriction* friction() const { return friction_.get(); }
  /// ρ_G = abc/h² at positions q (7 entries) [m]: the effective radius R* of the tangential laws at first touch.
  double EffectiveRadius(const Eigen::Ref<const Eigen::VectorXd>& q) const;

  EllipsoidWall3DContactState ContactAt(const Eigen::VectorXd& q) const;
  /// Same at centre x_G and rotation R (orthogonal, body → world).
  EllipsoidWall3DContactState ContactAt(const Eigen::Vector3d& centre, const Eigen::Matrix3d& rotation) const;
  /// World angular velocity ω = RΩ [rad/s].
  Eigen::Vector3d WorldAngularVelocity(const MechanicalState& s) const;
  /// v_cn = n·(v_G + ω × r) at the section centroid [m/s].
  double ContactNormalVelocity(const MechanicalState& s) const;
  /// World inertia R I_b Rᵀ at positions q [kg·m²].
  Eigen::Matrix3d WorldInertia(const Eigen::VectorXd& q) const;
  const EllipsoidWall3DParameters& parameters() const { return p_; }

 private:
  /// F_t of the committed history at s (slip from the configuration in z to s.q); c = ContactAt(s.q).
  Eigen::Vector3d FrictionAt(const MechanicalState& s, const EllipsoidWall3DContactState& c) const;
  /// R* = ρ_G at the configuration committed in z (the contact starts from there).
  double RadiusAtCommitted(const Eigen::VectorXd& z) const;
  /// m g z_G [J].
  double GravityPotential(double height) const { return p_.mass * p_.gravity * height; }

  EllipsoidWall3DParameters p_;
  std::shared_ptr<const EllipsoidWallFriction> friction_;
  Eigen::Vector3d inertia_;
  EccVolumeLaw law_;
  ContactCentricDamping damping_;
};

}  // namespace impactlab
