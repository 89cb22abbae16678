// Impulsive frictionless impact of an ellipsoid on a fixed wall, PLANAR special case (rotation θ about y,
// wall normal n = e_z, ω⁻ = 0, v⁻ ∥ n) [THEORY.md §2.1 "Schur-complement form", §4 "Impulsive frictionless
// impact"; Seed000 eqs. (13), (14), (43)].
//
//   Q = R_y(θ) diag(a⁻², b⁻², c⁻²) R_y(θ)ᵀ                       [m⁻²]
//   h = (Q33 − Q13²/Q11)^(−1/2)          support distance at first contact (seed 000's ρ in eq. 13) [m]
//   r_x = Q13 h / Q11                    lever arm of the first-contact point along x [m]
//   m_n* = (1/m + r_x²/I_yy)^(−1)        projected normal mass [kg]
//   e_E² = 1 − (1 − e_cn²) m_n*/m        total kinetic-energy restitution [Seed000 eq. 43; THEORY.md §4]
//
// Check value (THEORY.md §10 row 1): (a, b, c) = (1, 0.6, 0.6), m = 1, I_yy = m(a²+c²)/5, θ = 30°
// → r_x = 0.38431, h = 0.72111, m_n* = 0.6481 m.
//
// This is deliberately small and local to the calibration code: the full 3-D ellipsoid geometry (Σ, S_n,
// section centroid) lives in lib/geometry/ on another branch; the two agree on this planar case and are
// to be deduplicated at merge. e_E is templated so that Ceres Jets flow through it (AutoDiffCostFunction).
#pragma once

#include <cmath>

#include "core/checks.h"

namespace impactlab::calibration {

/// Ellipsoid semi-axes a (x), b (y), c (z) [m], mass m [kg], I_yy [kg m²] (rotation axis y).
struct PlanarEllipsoid {
  double a = 1.0, b = 0.6, c = 0.6;
  double mass = 1.0;
  double inertia_yy = 0.0;  ///< 0: solid ellipsoid m(a² + c²)/5

  void Validate() const {
    RequirePositive("a", a);
    RequirePositive("b", b);
    RequirePositive("c", c);
    RequirePositive("mass", mass);
    RequireNonNegative("I_yy", inertia_yy);
  }
  double Iyy() const { return inertia_yy > 0.0 ? inertia_yy : mass * (a * a + c * c) / 5.0; }
};

struct PlanarContactGeometry {
  double h = 0.0;           ///< support distance [m]
  double lever_x = 0.0;     ///< r_x [m] (sign: Q13 convention above)
  double normal_mass = 0.0; ///< m_n* [kg]
};

/// Geometry and projected normal mass at first contact for a rotation θ [rad] about y.
inline PlanarContactGeometry FirstContactGeometry(const PlanarEllipsoid& e, double theta) {
  const double cs = std::cos(theta), sn = std::sin(theta);
  const double ia2 = 1.0 / (e.a * e.a), ic2 = 1.0 / (e.c * e.c);
  // R_y(θ) = [[c, 0, s], [0, 1, 0], [−s, 0, c]]; Q_ij = Σ_k R_ik R_jk / a_k².
  const double q11 = cs * cs * ia2 + sn * sn * ic2;
  const double q33 = sn * sn * ia2 + cs * cs * ic2;
  const double q13 = -cs * sn * ia2 + sn * cs * ic2;
  PlanarContactGeometry g;
  g.h = 1.0 / std::sqrt(q33 - q13 * q13 / q11);
  g.lever_x = q13 * g.h / q11;
  g.normal_mass = 1.0 / (1.0 / e.mass + g.lever_x * g.lever_x / e.Iyy());
  return g;
}

/// e_E(e_cn) for a given mass ratio m_n*/m ∈ (0, 1]; T = double or ceres::Jet.
template <typename T>
T EnergyRestitution(const T& e_cn, double normal_mass_ratio) {
  using std::sqrt;
  return sqrt(T(1.0) - (T(1.0) - e_cn * e_cn) * normal_mass_ratio);
}

}  // namespace impactlab::calibration
