// PlanarGap: the narrow-phase result for one contact slot (a body pair or a body–wall pair) at one
// configuration q. Conventions (docs/theory.md §1):
//   delta  > 0 penetration [m] (signed: −delta is the separation distance when the bodies are apart),
//   normal unit N pointing from body A into body B (for a wall, A is the wall and N its normal),
//   tangent T = ẑ × N (N rotated by +90°, so N × T = ẑ); the relative tangential velocity is T·(u_B − u_A),
//   point  the contact point c [m]: midway between the two witness points (the deepest point of each body
//          along ∓N), so both bodies' lever arms refer to ONE point — this makes the equal-and-opposite
//          contact forces torque-free in total (exact angular momentum, docs/efda.md §4).
//   effective_radius  R* = 1/(1/ρ_A + 1/ρ_B) [m] of the two boundaries' radii of curvature at their witness points
//          (a wall has ρ_A = ∞). For an ellipse with outward normal u at the witness point, ρ = a²b²/h(u)³ with
//          h(u) = √(uᵀ S u) its support function (ρ = h + h'' for any convex curve; b²/a at the ends of the major
//          axis, a²/b at the ends of the minor one). Used by the tangential laws of planar_tangential_law.h.
// Derivatives (envelope theorem for the support-function definition of the gap):
//   ∂δ/∂x_B = −N, ∂δ/∂θ_B = −(c − x_B) × N,  ∂δ/∂x_A = +N, ∂δ/∂θ_A = +(c − x_A) × N.
#pragma once

#include <Eigen/Core>

namespace impactlab {

struct PlanarGap {
  int body_a = -1;  ///< index of body A, −1 for a fixed wall
  int body_b = 0;   ///< index of body B
  double delta = 0.0;
  Eigen::Vector2d normal = Eigen::Vector2d::UnitY();
  Eigen::Vector2d tangent = -Eigen::Vector2d::UnitX();
  Eigen::Vector2d point = Eigen::Vector2d::Zero();
  double effective_radius = 0.0;  ///< R* [m] of the two boundary curvatures at the contact point
};

}  // namespace impactlab
