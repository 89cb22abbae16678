// EccVolumeLaw: ECC Model I, the linear contact-volume law for a rigid ellipsoid on a rigid wall
// [Seed000 eqs. (29)–(32), (47); Feng 2021 CMAME (energy-conserving contact); docs/theory.md §2.1].
//
//   W = K_n V_c                         contact energy [J]; K_n [Pa = J/m³] > 0
//   F = K_n S_n n                       force on the body [N], applied at the SECTION CENTROID x̄
//   τ = (x̄ − x_G) × F                   torque about the centre [N·m]
//   k_eff = K_n S_n²/(2V_c)             Feng's instantaneous stiffness, evaluated in its regular form
//         = 3π K_n abc/(2h²)·(2−t)²/(3−t) → 2π K_n ρ_G at onset (no 0/0, docs/theory.md §12.2)
//
// (F, τ) is the exact generalized gradient of W: −∂W/∂x_G = F and −∂W/∂φ = τ for a rigid rotation φ
// (gradient theorem of docs/theory.md §2.1), so K + K_n V_c is conserved by the exact flow. Using the support
// point instead of x̄ breaks that. Outside contact everything is 0. Sign: F·n ≥ 0 (repulsive).
#pragma once

#include <Eigen/Core>

#include "geometry/ellipsoid_plane_contact.h"

namespace impactlab {

struct EccVolumeResponse {
  double potential = 0.0;      ///< W [J]
  double normal_force = 0.0;   ///< F_n = K_n S_n [N] (≥ 0)
  Eigen::Vector3d force = Eigen::Vector3d::Zero();   ///< F_n n [N]
  Eigen::Vector3d point = Eigen::Vector3d::Zero();   ///< application point x̄ [m]
  Eigen::Vector3d torque = Eigen::Vector3d::Zero();  ///< about x_G [N·m]
  double effective_stiffness = 0.0;  ///< k_eff [N/m] (defined as its δ → 0⁺ limit at first touch)
};

class EccVolumeLaw final {
 public:
  explicit EccVolumeLaw(double K_n);  ///< throws InvalidParameter("K_n", ...) unless K_n > 0
  double K_n() const { return K_n_; }
  /// Response for the geometry of one ellipsoid–wall pair (centre x_G, wall normal n).
  EccVolumeResponse Evaluate(const EllipsoidShape& shape, const EllipsoidPlaneGeometry& g,
                             const Eigen::Vector3d& centre, const Eigen::Vector3d& normal) const;

 private:
  double K_n_;
};

}  // namespace impactlab
