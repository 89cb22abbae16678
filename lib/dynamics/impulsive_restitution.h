// Impulsive (rigid) frictionless impact of one rigid body on a fixed wall [Seed000 eqs. (39)–(45);
// docs/theory.md §4, with the PLUS sign for ω⁺ (seed eq. 42 prints a minus; only + is consistent with the
// seed's own planar eq. 44 and with v_cn⁺ = −e_cn v_cn⁻, docs/theory.md §11.2, §12.6)].
//
//   v_cn⁻ = n·(v⁻ + ω⁻ × r)                        contact-point normal velocity (< 0 approaching)
//   J_n   = −(1 + e_cn) m_n* v_cn⁻                  normal impulse on the body (> 0)         (eq. 40)
//   v⁺    = v⁻ + (J_n/m) n                                                                  (eq. 41)
//   ω⁺    = ω⁻ + J_n I⁻¹ (r × n)                                                             (eq. 42, +)
//   e_E   = √(K⁺/K⁻),  K = ½ m|v|² + ½ ωᵀIω                                                 (eq. 43)
// so that v_cn⁺ = −e_cn v_cn⁻ (eq. 39). n points from the wall into the body; r = x_c − x_G.
// Planar (x–z plane, ω = ω_y e_y, n = e_z): v_cn = v_z − ω_y r_x, ω_y⁺ = ω_y⁻ − J_n r_x/I_yy (eq. 44).
#pragma once

#include <Eigen/Core>

namespace impactlab {

struct ImpulsiveImpactInput {
  double mass = 1.0;                                      ///< m [kg] > 0
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity();  ///< world inertia about the centre [kg·m²]
  Eigen::Vector3d lever = Eigen::Vector3d::Zero();        ///< r = x_c − x_G [m]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();      ///< n, unit, wall → body
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();     ///< v⁻ [m/s]
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  ///< ω⁻ [rad/s]
  double e_cn = 1.0;                                      ///< contact-point restitution ∈ [0, 1]
};

struct ImpulsiveImpactResult {
  double m_n_star = 0.0;        ///< [kg]
  double v_cn_before = 0.0;     ///< v_cn⁻ [m/s]
  double v_cn_after = 0.0;      ///< v_cn⁺ [m/s]
  double impulse = 0.0;         ///< J_n [N·s]
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();          ///< v⁺
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  ///< ω⁺
  double kinetic_before = 0.0, kinetic_after = 0.0;            ///< K⁻, K⁺ [J]
  double e_E = 1.0;             ///< √(K⁺/K⁻)
};

/// Throws InvalidParameter for m ≤ 0, e_cn ∉ [0, 1], or a separating contact (v_cn⁻ ≥ 0, key "v_cn").
ImpulsiveImpactResult SolveImpulsiveWallImpact(const ImpulsiveImpactInput& input);

}  // namespace impactlab
