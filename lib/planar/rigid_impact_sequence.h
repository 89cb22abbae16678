// RigidImpactSequence: the rigid-body reference of the carom test (docs/theory.md §8): one rigid ellipse among
// fixed walls, ballistic free flight (uniform gravity −g ŷ, constant spin) between instantaneous impacts,
// each impact solved by Routh's method (routh_impulse.h), chained impact by impact.
//
// Free flight:  x(t) = x_k + v_k τ − ½ g τ² ŷ,  θ(t) = θ_k + ω_k τ,  τ = t − t_k.
// Next impact:  the first τ > 0 at which some wall gap δ_w(t) (ellipse_wall_gap.h) crosses 0 upwards.
//   Located by marching in τ (steps growing geometrically from 1e-9 s to `max_sample_step`, so a re-contact
//   right after an impact is not jumped over) and bisection to 1e-15 s. A graze that enters and leaves the
//   wall between two samples can be missed; the sample step bounds that risk (documented in docs/efda.md).
// Contact point: the deepest ellipse point along −n at the located instant (δ = 0 there).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "planar/ellipse.h"
#include "planar/routh_impulse.h"
#include "planar/wall.h"

namespace impactlab {

struct RigidBodyState2D {
  double t = 0.0;
  Eigen::Vector2d x = Eigen::Vector2d::Zero();
  double theta = 0.0;
  Eigen::Vector2d v = Eigen::Vector2d::Zero();
  double omega = 0.0;
};

struct RigidImpactRecord {
  int wall = 0;
  RigidBodyState2D before, after;  ///< states just before / after the impact (same t, x, θ)
  RouthImpactResult impact;
};

struct RigidImpactSequenceOptions {
  double friction = 0.0;
  double restitution = 1.0;
  RestitutionHypothesis hypothesis = RestitutionHypothesis::kStronge;
  double gravity = 0.0;
  double max_sample_step = 1e-4;  ///< [s]
};

class RigidImpactSequence {
 public:
  RigidImpactSequence(Ellipse body, std::vector<Wall> walls, RigidImpactSequenceOptions options);

  /// Impacts from `initial` until t_end or `max_impacts` impacts.
  std::vector<RigidImpactRecord> Run(const RigidBodyState2D& initial, double t_end, int max_impacts) const;
  /// Routh impact of the body in state `s` against wall `wall` (contact point: deepest point along −n).
  /// Throws InvalidParameter when the contact point is not approaching the wall.
  RouthImpactResult ImpactAt(const RigidBodyState2D& s, int wall) const;
  /// Ballistic state at time t starting from `from` (no impact in between assumed).
  RigidBodyState2D Fly(const RigidBodyState2D& from, double t) const;
  /// State at time t of a run (free flight from the last impact before t).
  RigidBodyState2D StateAt(const RigidBodyState2D& initial, const std::vector<RigidImpactRecord>& impacts,
                           double t) const;

 private:
  double WallGap(const RigidBodyState2D& s, int wall) const;

  Ellipse body_;
  std::vector<Wall> walls_;
  RigidImpactSequenceOptions options_;
};

}  // namespace impactlab
