// EllipsoidWallImpact3D: the full 3D rigid ellipsoid hitting a rigid flat wall, frictionless, ECC Model I
// (W = K_n V_c) with contact-centric viscous damping [Seed000 eqs. (7)–(12), (33), (35)–(43); docs/theory.md §2.1,
// §3, §4]. Same physics as the planar EllipsoidWallImpact, without the planar restriction.
//
//   q = (x_G [3], quaternion (w, x, y, z) [4])   body → world rotation R(q̂), q̂ = q/|q| (renormalized)
//   v = (v_G [3], Ω [3])                         Ω = body-frame angular velocity [rad/s]
//   ẋ_G = v_G,  q̇ = ½ q ⊗ (0, Ω)                 (PositionRate; N(q) ≠ I, so not a ConstantMassSystem)
//   m v̇ = F,    I_b Ω̇ = Rᵀ τ − Ω × I_b Ω         (Euler's equations, gyroscopic term included)
//   I_b = m/5 diag(b² + c², a² + c², a² + b²)
//   F = (K_n S_n − η v_cn) n at the section centroid x̄;  τ = (x̄ − x_G) × F;  v_cn = n·(v_G + ω × r), ω = RΩ
//   η = 2ξ_L(e_cn)√(m_n* k_eff) (adaptive) or with a fixed mass, m_n* = (nᵀ M_eff⁻¹ n)⁻¹ with r = x̄ − x_G
//   E = ½ m|v|² + ½ Ωᵀ I_b Ω + K_n V_c,  P_diss = η v_cn²
// Wall z = 0, n = e_z. Contact event function δ with the exact rate δ̇ = −n·(v_G + ω × r_s) (r_s: support
// point), = −v_cn at δ = 0. The damper is active for δ ≥ 0 (docs/theory.md §12.2). Initial orientation
// R₀ = R_x(tilt) R_y(θ) (θ about +y as in the planar model, then a tilt about +x).
// A RigidBodySystem (system/rigid_body_system.h), so the rotation scheme lie_poisson_midpoint runs it with the
// energy balance exact (docs/rotation.md §6).
#pragma once

#include <Eigen/Geometry>

#include "contact/damping/contact_centric_damping.h"
#include "contact/ecc_volume_law.h"
#include "geometry/ellipsoid_plane_contact.h"
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
  explicit EllipsoidWallImpact3D(EllipsoidWall3DParameters parameters);

  std::string name() const override { return "ellipsoid_wall_3d"; }
  MechanicalState InitialState() const override;
  void PositionRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> q_dot) const override;
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  bool velocity_dependent_forces() const override { return true; }  // gyroscopic term, damping
  void NormalizeCoordinates(MechanicalState& s) const override;
  double KineticEnergy(const MechanicalState& s) const override;
  double PotentialEnergy(const MechanicalState& s) const override;
  double DissipationPower(const MechanicalState& s) const override;
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
  EllipsoidWall3DParameters p_;
  Eigen::Vector3d inertia_;
  EccVolumeLaw law_;
  ContactCentricDamping damping_;
};

}  // namespace impactlab
