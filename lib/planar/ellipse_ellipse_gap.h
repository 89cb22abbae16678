// Ellipse–ellipse gap by the support function of the Minkowski difference D = B ⊖ A.
//
//   s = max_{|u|=1} φ(u),  φ(u) = u·(x_B − x_A) − h_A(u) − h_B(u)        (h_E(−u) = h_E(u), central symmetry)
//
// For disjoint convex bodies s is the Euclidean distance; for overlapping ones −s is the penetration depth
// (minimum translation distance), because dist(0, ∂D) = max_u −h_D(−u) [convex analysis]. δ = −s, N = u*
// (points from A into B), witness points x_A + S_A N / h_A(N) and x_B − S_B N / h_B(N), contact point
// their midpoint. With u = (cos t, sin t) this is a smooth 1-D maximization on the circle:
//   f_E(t) = h_E² = S11 c² + 2 S12 c s + S22 s²,  f' = (S22 − S11) sin 2t + 2 S12 cos 2t,
//   f'' = 2 (S22 − S11) cos 2t − 4 S12 sin 2t,   h' = f'/(2h),  h'' = f''/(2h) − f'²/(4h³),
//   φ' = d·u⊥ − h_A' − h_B',  φ'' = −d·u − h_A'' − h_B''.
// Method: 64 equally spaced samples of φ pick the global basin (for overlapping ellipses φ can have two
// local maxima); safeguarded Newton on φ'(t) = 0 (step clamped to one sample spacing, falls back to a
// golden-section search on the bracket if Newton leaves it) converges to |Δt| < 1e-14. Cost: ~70 support
// evaluations per call. Exact for circles (δ = r_A + r_B − |d|), tested against closed forms and a
// brute-force boundary sampling (tests/planar/gap_geometry_test.cpp).
#pragma once

#include <Eigen/Core>

#include "planar/ellipse.h"
#include "planar/planar_gap.h"

namespace impactlab {

PlanarGap EllipseEllipseGap(const Ellipse& ea, int body_a, const Eigen::Vector2d& xa, double theta_a,
                            const Ellipse& eb, int body_b, const Eigen::Vector2d& xb, double theta_b);

}  // namespace impactlab
