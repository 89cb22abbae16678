// Wall: a fixed straight line (infinitely massive), the boundary of the half-plane {p : n·(p − point) ≥ 0}
// in which bodies move. n is the unit outward normal of the wall, pointing into the free region
// (docs/theory.md §1: for a wall contact the normal points from the wall (body A) into the body (B)).
#pragma once

#include <Eigen/Core>
#include <cmath>

#include "core/errors.h"
#include "planar/planar_vector.h"

namespace impactlab {

struct Wall {
  Eigen::Vector2d point = Eigen::Vector2d::Zero();   ///< a point on the line [m]
  Eigen::Vector2d normal = Eigen::Vector2d::UnitY();  ///< unit normal into the free region

  /// A wall through `point` with normal direction `direction` (normalized here).
  static Wall Through(const Eigen::Vector2d& point, const Eigen::Vector2d& direction) {
    const double n = direction.norm();
    if (!(std::isfinite(n) && n > 0.0)) throw InvalidParameter("wall_normal", n, "a non-zero finite vector");
    return Wall{point, direction / n};
  }
};

}  // namespace impactlab
