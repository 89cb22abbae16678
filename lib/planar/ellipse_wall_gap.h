// Exact ellipse–line gap (docs/theory.md §7 "planar ellipse on a floor"):
//   δ = h_E(n) − n·(x − p_w),   h_E(n) = √(nᵀ S(θ) n)  (support function, ellipse.h),
// with n the wall normal (into the free region) and p_w a point of the wall. δ > 0 is penetration.
// The deepest ellipse point is x − S n / h(n); its projection onto the wall is that point + δ n; the contact
// point is their midpoint. N = n (from the wall, body A, into the ellipse, body B), T = ẑ × N.
// Closed form for a floor (n = ŷ): δ = √(a² sin²θ + b² cos²θ) − (y − y_w). Cost: O(1).
#pragma once

#include <Eigen/Core>

#include "planar/ellipse.h"
#include "planar/planar_gap.h"
#include "planar/wall.h"

namespace impactlab {

/// Gap between `ellipse` (body index `body`, centre `centre`, orientation `theta`) and `wall`.
PlanarGap EllipseWallGap(const Ellipse& ellipse, int body, const Eigen::Vector2d& centre, double theta,
                         const Wall& wall);

}  // namespace impactlab
