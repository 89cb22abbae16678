// EllipsoidWallImpact: a rigid ellipsoid hitting a rigid flat wall, frictionless, ECC Model I contact
// (W = K_n V_c) with contact-centric viscous damping [Seed000 §6 (eqs. 47–49), eqs. (33), (36)–(38), (44)–(45);
// docs/theory.md §2.1, §3, §4].
//
// PLANAR motion in the x–z plane (the seed's case; full 3D is NOT built here):
//   q = (x, z, θ)   centre position [m] and rotation angle about +e_y [rad]: R = R_y(θ) maps body → world
//   v = (v_x, v_z, ω_y),   M = diag(m, m, I_yy),  I_yy = m(a² + c²)/5  (constant ⇒ ConstantMassSystem)
//   wall z = 0 with normal n = e_z; semi-axis a along body x, b along body y (out of plane), c along body z.
//   Initial θ = 0 puts a along the wall.
//
// Contact (docs/theory.md §2.1): δ = h − z with h = √(nᵀΣn); lever to the section centroid r = x̄ − x_G;
//   v_cn = v_z − ω_y r_x            contact-point normal velocity at x̄ (Seed000 eq. 44 form)
//   generalized contact Jacobian G = (0, 1, −r_x):  v_cn = G·v
//   elastic:  V(q) = K_n V_c,  −∇V = G K_n S_n          (force K_n S_n e_z at x̄, exact gradient)
//   damping:  f_nc = −η G Gᵀ v = −C(q) v, η = 2ξ√(m_n* k_eff) (or a fixed mass), P_diss = η v_cn²
//   m_n* = (1/m + r_x²/I_yy)⁻¹ with the lever at x̄ (docs/theory.md §12.5)
// The normal force is never clipped (it turns tensile just before separation, at δ = 0). The damper is active
// for δ ≥ 0 (its δ → 0⁺ limit at δ = 0 exactly, docs/theory.md §12.2), the elastic force for δ > 0 (it is 0 at δ = 0).
// Contact event function: δ, with rate δ̇ = ḣ − v_z = −n·(v + ω × r_s) exactly (r_s: support-point lever);
// since x̄ = x_s at δ = 0, δ̇ = −v_cn at contact start and end, so −δ̇_end/δ̇_start = e_cn (Seed000 eq. 38).
#pragma once

#include "contact/damping/contact_centric_damping.h"
#include "contact/ecc_volume_law.h"
#include "geometry/ellipsoid_plane_contact.h"
#include "system/constant_mass_system.h"

namespace impactlab {

struct EllipsoidWallParameters {
  EllipsoidShape shape{Eigen::Vector3d(1.0, 0.6, 0.6)};  ///< (a, b, c) [m]
  double mass = 1.0;          ///< m [kg] > 0
  double theta_deg = 30.0;    ///< initial orientation θ [deg], [−180, 180]
  double v_x = 0.0;           ///< initial v_x [m/s]
  double v_z = -1.5;          ///< initial v_z [m/s] < 0 (approaching)
  double omega_y = 0.0;       ///< initial ω_y [rad/s]
  double gap = 0.0;           ///< initial clearance z₀ − h(θ₀) [m] ≥ 0 (0: touching at t = 0)
  double K_n = 1e3;           ///< ECC stiffness [Pa] > 0
  double e_cn = 1.0;          ///< target contact-point restitution ∈ (0, 1]
  DampingMassMode damping = DampingMassMode::kAdaptive;
  void Validate() const;
  double inertia_yy() const;  ///< I_yy = m(a² + c²)/5 [kg·m²]
};

/// Everything the model knows about one configuration (for observers, summaries and tests).
struct EllipsoidWallContactState {
  EllipsoidPlaneGeometry geometry;
  EccVolumeResponse response;
  double lever_x = 0.0;     ///< r_x of the section centroid (support point when separated) [m]
  double m_n_star = 0.0;    ///< [kg]
  double k_eff = 0.0;       ///< [N/m] (0 when separated)
  double eta = 0.0;         ///< damping coefficient [N·s/m] (0 when separated)
};

class EllipsoidWallImpact final : public ConstantMassSystem {
 public:
  explicit EllipsoidWallImpact(EllipsoidWallParameters parameters);

  std::string name() const override { return "ellipsoid_wall"; }
  MechanicalState InitialState() const override;

  Eigen::VectorXd MassDiagonal() const override;
  double Potential(const Eigen::VectorXd& q) const override;
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> gradient) const override;
  /// Analytic ∇²V (3×3, x-row and column zero): with H = Σ_zz = h², P = Σ_xz, k = K_n π abc and
  /// f = (H − z²) H^(−3/2) (so K_n S_n = k f, r_x = −zP/H):  V_zz = 2kz H^(−3/2), V_zθ = −k ∂f/∂θ,
  /// V_θθ = −kz ∂(fP/H)/∂θ, with ∂H/∂θ = −2P and ∂P/∂θ = (c² − a²) cos 2θ. Zero out of contact.
  Eigen::SparseMatrix<double> PotentialHessian(const Eigen::VectorXd& q) const override;
  Eigen::SparseMatrix<double> DampingMatrix(const Eigen::VectorXd& q) const override;
  // The allocation-free forms the implicit schemes use (the matrices above are built from them).
  void WriteMassDiagonal(Eigen::Ref<Eigen::VectorXd> m) const override;
  void AppendPotentialHessianEntries(const Eigen::VectorXd& q, SparseEntries& entries) const override;
  void AppendDampingMatrixEntries(const Eigen::VectorXd& q, SparseEntries& entries) const override;
  /// ∂(C(q) w)/∂q by central differences of C(q) w = (0, f, −r f), f = η (w_z − r w_θ), in z and θ (C does not
  /// depend on x), steps 1e-7 × the largest semi-axis and 1e-7 rad: η (the ECC stiffness and m_n*) and the lever r
  /// have no closed-form derivative here.
  void AppendDampingForceGradientEntries(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                         SparseEntries& entries) const override;
  std::size_t MaxSparseEntries() const override { return 4; }
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override;
  double DissipationPower(const MechanicalState& s) const override;
  bool velocity_dependent_forces() const override { return damping_.damping_ratio() > 0.0; }
  /// q̇ = v (q = x, z, θ), no normalisation, no history; no dissipation at damping ratio 0, where η = 0
  /// (system/default_hooks.h).
  DefaultHooks default_hooks() const override { return {true, true, true, !velocity_dependent_forces()}; }

  int num_contacts() const override { return 1; }
  /// Δt_crit estimate for explicit schemes (docs/reliability.md, "Numerical guards").
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;
  std::optional<double> ContactSize(int contact) const override;
  void ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                       std::span<double> overlap_rate) const override;

  std::vector<std::string> ObservableNames() const override;
  void Observe(const MechanicalState& s, std::vector<double>& values) const override;

  /// Geometry, forces, m_n*, k_eff and η at positions q.
  EllipsoidWallContactState ContactAt(const Eigen::VectorXd& q) const;
  /// v_cn = v_z − ω_y r_x at the section centroid [m/s].
  double ContactNormalVelocity(const MechanicalState& s) const;
  /// m_n* at first touch for orientation θ [rad] (Seed000 eq. 14, support-point lever).
  double InitialProjectedMass(double theta) const;
  /// Translational and rotational kinetic energy [J].
  double TranslationalKineticEnergy(const MechanicalState& s) const;
  double RotationalKineticEnergy(const MechanicalState& s) const;

  const EllipsoidWallParameters& parameters() const { return p_; }
  const ContactCentricDamping& damping() const { return damping_; }
  static const PlaneWall& Wall();

 private:
  EllipsoidWallParameters p_;
  double inertia_;
  EccVolumeLaw law_;
  ContactCentricDamping damping_;
};

}  // namespace impactlab
