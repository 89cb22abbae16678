#include "planar/rigid_impact_sequence.h"

#include <cmath>

#include "core/checks.h"
#include "planar/ellipse_wall_gap.h"

namespace impactlab {

RigidImpactSequence::RigidImpactSequence(Ellipse body, std::vector<Wall> walls, RigidImpactSequenceOptions options)
    : body_(body), walls_(std::move(walls)), options_(options) {
  body_.Validate();
  RequireNonNegative("gravity", options_.gravity);
  RequirePositive("max_sample_step", options_.max_sample_step);
}

RigidBodyState2D RigidImpactSequence::Fly(const RigidBodyState2D& from, double t) const {
  const double tau = t - from.t;
  RigidBodyState2D s = from;
  s.t = t;
  s.x = from.x + from.v * tau - Eigen::Vector2d(0.0, 0.5 * options_.gravity * tau * tau);
  s.v = from.v - Eigen::Vector2d(0.0, options_.gravity * tau);
  s.theta = from.theta + from.omega * tau;
  return s;
}

double RigidImpactSequence::WallGap(const RigidBodyState2D& s, int wall) const {
  return EllipseWallGap(body_, 0, s.x, s.theta, walls_[static_cast<size_t>(wall)]).delta;
}

std::vector<RigidImpactRecord> RigidImpactSequence::Run(const RigidBodyState2D& initial, double t_end,
                                                        int max_impacts) const {
  std::vector<RigidImpactRecord> out;
  RigidBodyState2D cur = initial;
  const int nw = static_cast<int>(walls_.size());
  while (static_cast<int>(out.size()) < max_impacts && cur.t < t_end) {
    double step = 1e-9, t_prev = cur.t;
    int hit = -1;
    double t_hit = 0.0;
    while (t_prev < t_end) {
      const double t_next = std::min(t_prev + step, t_end);
      const RigidBodyState2D s = Fly(cur, t_next);
      for (int w = 0; w < nw; ++w) {
        if (WallGap(s, w) > 0.0) {
          // Bisection on [t_prev, t_next] for wall w (gap ≤ 0 at t_prev for every wall by construction).
          double lo = t_prev, hi = t_next;
          while (hi - lo > 1e-15 * std::max(1.0, hi)) {
            const double mid = 0.5 * (lo + hi);
            (WallGap(Fly(cur, mid), w) > 0.0 ? hi : lo) = mid;
          }
          if (hit < 0 || lo < t_hit) {
            hit = w;
            t_hit = lo;
          }
        }
      }
      if (hit >= 0) break;
      t_prev = t_next;
      step = std::min(2.0 * step, options_.max_sample_step);
    }
    if (hit < 0) break;
    RigidImpactRecord rec;
    rec.wall = hit;
    rec.before = Fly(cur, t_hit);
    const Wall& wall = walls_[static_cast<size_t>(hit)];
    const Eigen::Vector2d lever = -body_.SupportOffset(rec.before.theta, wall.normal);
    const Eigen::Vector2d u = rec.before.v + rec.before.omega * Perp(lever);
    if (!(wall.normal.dot(u) < 0.0)) {  // grazing touch without approach: keep flying past it
      cur = Fly(cur, t_hit + 1e-9);
      continue;
    }
    rec.impact = ImpactAt(rec.before, hit);
    rec.after = rec.before;
    rec.after.v = rec.impact.velocity;
    rec.after.omega = rec.impact.omega;
    out.push_back(rec);
    cur = rec.after;
  }
  return out;
}

RouthImpactResult RigidImpactSequence::ImpactAt(const RigidBodyState2D& s, int wall) const {
  const Wall& w = walls_.at(static_cast<size_t>(wall));
  RouthImpactInput in;
  in.mass = body_.mass;
  in.inertia = body_.inertia();
  in.normal = w.normal;
  in.lever = -body_.SupportOffset(s.theta, w.normal);
  in.velocity = s.v;
  in.omega = s.omega;
  in.friction = options_.friction;
  in.restitution = options_.restitution;
  in.hypothesis = options_.hypothesis;
  return SolveRouthImpact(in);
}

RigidBodyState2D RigidImpactSequence::StateAt(const RigidBodyState2D& initial,
                                              const std::vector<RigidImpactRecord>& impacts, double t) const {
  RigidBodyState2D from = initial;
  for (const auto& r : impacts) {
    if (r.after.t > t) break;
    from = r.after;
  }
  return Fly(from, t);
}

}  // namespace impactlab
