// Planar vector helpers (z-components of 3D cross products in the x–y plane).
#pragma once

#include <Eigen/Core>

namespace impactlab {

/// Planar cross product a × b = a_x b_y − a_y b_x (the z component).
inline double Cross2(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }
/// ẑ × a = (−a_y, a_x): rotation by +90°.
inline Eigen::Vector2d Perp(const Eigen::Vector2d& a) { return {-a.y(), a.x()}; }

}  // namespace impactlab
