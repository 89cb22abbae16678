// Ellipse: a rigid planar ellipse (a disk when a = b) — shape, mass properties and support function.
//
//   Body frame: semi-axis a along the body x-axis, b along the body y-axis; orientation θ [rad] is the angle
//   of the body x-axis (the major axis when a ≥ b) from the global x-axis, counter-clockwise positive.
//   Shape matrix  S(θ) = R(θ) diag(a², b²) R(θ)ᵀ,  R(θ) = [[cos θ, −sin θ], [sin θ, cos θ]].
//   Support function about the centre (max over the body of u·(p − x), |u| = 1):  h(u) = √(uᵀ S u),
//   support point  p(u) = x + S u / h(u)  (the body point farthest along u; by central symmetry the
//   farthest along −u is x − S u / h(u)).
//   Planar mass properties: m [kg], I = m (a² + b²) / 4 [kg m²] (docs/theory.md §8, uniform lamina).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "core/checks.h"
#include "planar/planar_vector.h"

namespace impactlab {

struct Ellipse {
  double a = 0.0;     ///< semi-axis along the body x-axis [m] > 0
  double b = 0.0;     ///< semi-axis along the body y-axis [m] > 0
  double mass = 0.0;  ///< [kg] > 0

  void Validate() const {
    RequirePositive("semi_axis_a", a);
    RequirePositive("semi_axis_b", b);
    RequirePositive("mass", mass);
  }
  /// I = m (a² + b²) / 4 [kg m²].
  double inertia() const { return mass * (a * a + b * b) / 4.0; }
  /// Radius of the bounding circle [m].
  double bounding_radius() const { return std::max(a, b); }

  /// S(θ) = R diag(a², b²) Rᵀ.
  Eigen::Matrix2d ShapeMatrix(double theta) const {
    const double c = std::cos(theta), s = std::sin(theta);
    const double a2 = a * a, b2 = b * b;
    Eigen::Matrix2d m;
    m(0, 0) = a2 * c * c + b2 * s * s;
    m(1, 1) = a2 * s * s + b2 * c * c;
    m(0, 1) = m(1, 0) = (a2 - b2) * c * s;
    return m;
  }
  /// h(u) = √(uᵀ S u) for a unit vector u [m].
  double Support(double theta, const Eigen::Vector2d& u) const { return std::sqrt(u.dot(ShapeMatrix(theta) * u)); }
  /// Radius of curvature [m] of the boundary at the support point along the unit vector u (outward normal u):
  /// ρ = a²b²/h(u)³ (ρ = h + h'' of the support function; b²/a at the ends of the a-axis, a²/b at the ends of the
  /// b-axis). `support` = h(u) when already known.
  double CurvatureRadius(double support) const { return a * a * b * b / (support * support * support); }
  /// Offset of the support point from the centre, S u / h(u) [m].
  Eigen::Vector2d SupportOffset(double theta, const Eigen::Vector2d& u) const {
    const Eigen::Matrix2d s = ShapeMatrix(theta);
    return s * u / std::sqrt(u.dot(s * u));
  }
};

}  // namespace impactlab
