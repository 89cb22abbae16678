#include "models/ellipse_box.h"

#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "planar/ellipse_wall_gap.h"

namespace impactlab {

EllipseBoxParameters EllipseBoxParameters::FromParameterSet(const ParameterSet& p) {
  EllipseBoxParameters e;
  e.semi_axis_a = RequirePositive("a", p.GetDouble("a", e.semi_axis_a));
  e.semi_axis_b = RequirePositive("b", p.GetDouble("b", e.semi_axis_b));
  e.mass = RequirePositive("m", p.GetDouble("m", e.mass));
  e.box = RequirePositive("box", p.GetDouble("box", e.box));
  e.x0 = RequireFinite("x0", p.GetDouble("x0", e.x0));
  e.y0 = RequireFinite("y0", p.GetDouble("y0", e.y0));
  e.alpha_deg = RequireFinite("alpha_deg", p.GetDouble("alpha_deg", e.alpha_deg));
  e.vx = RequireFinite("vx", p.GetDouble("vx", e.vx));
  e.vy = RequireFinite("vy", p.GetDouble("vy", e.vy));
  e.omega = RequireFinite("omega", p.GetDouble("omega", e.omega));
  e.gravity = RequireNonNegative("gravity", p.GetDouble("gravity", e.gravity));
  e.penalty.normal_stiffness = p.GetDouble("K_N", e.penalty.normal_stiffness);
  e.penalty.tangential_stiffness = p.GetDouble("K_T", e.penalty.tangential_stiffness);
  e.penalty.normal_damping_ratio = p.GetDouble("xi_N", e.penalty.normal_damping_ratio);
  e.penalty.tangential_damping_ratio = p.GetDouble("xi_T", e.penalty.tangential_damping_ratio);
  if (p.Has("friction_angle_deg") && p.Has("mu"))
    throw InvalidParameter("mu", p.GetDouble("mu"), "either mu or friction_angle_deg, not both");
  if (p.Has("friction_angle_deg"))
    e.penalty.friction_coefficient =
        std::tan(RequireInClosed("friction_angle_deg", p.GetDouble("friction_angle_deg"), 0.0, 89.0) *
                 std::numbers::pi / 180.0);
  else
    e.penalty.friction_coefficient = p.GetDouble("mu", e.penalty.friction_coefficient);
  e.penalty.Validate();
  e.reference_restitution = RequireInClosed("reference_e", p.GetDouble("reference_e", e.reference_restitution), 0.0, 1.0);
  e.reference_hypothesis = ParseRestitutionHypothesis("reference_hypothesis", p.GetString("reference_hypothesis", "stronge"));
  // The ellipse must start inside the box, clear of every wall.
  const PlanarEllipsesConfig c = MakeEllipseBoxConfig(e);
  for (const auto& w : c.walls) {
    const double d = EllipseWallGap(c.bodies[0], 0, {e.x0, e.y0}, c.q0[2], w).delta;
    if (d >= 0.0) throw InvalidParameter("x0, y0", "(" + InvalidParameter::FormatNumber(e.x0) + ", " +
                                                       InvalidParameter::FormatNumber(e.y0) + ")",
                                         "a start position with the ellipse clear of all walls");
  }
  return e;
}

PlanarEllipsesConfig MakeEllipseBoxConfig(const EllipseBoxParameters& p) {
  PlanarEllipsesConfig c;
  c.name = "ellipse_box";
  c.bodies = {Ellipse{p.semi_axis_a, p.semi_axis_b, p.mass}};
  c.walls = {Wall::Through({0.0, 0.0}, {0.0, 1.0}), Wall::Through({p.box, 0.0}, {-1.0, 0.0}),
             Wall::Through({0.0, p.box}, {0.0, -1.0}), Wall::Through({0.0, 0.0}, {1.0, 0.0})};
  c.penalty = p.penalty;
  c.gravity = p.gravity;
  c.q0.resize(3);
  c.v0.resize(3);
  c.q0 << p.x0, p.y0, p.alpha_deg * std::numbers::pi / 180.0;
  c.v0 << p.vx, p.vy, p.omega;
  return c;
}

RigidImpactSequence MakeEllipseBoxReference(const EllipseBoxParameters& p) {
  const PlanarEllipsesConfig c = MakeEllipseBoxConfig(p);
  RigidImpactSequenceOptions o;
  o.friction = p.penalty.friction_coefficient;
  o.restitution = p.reference_restitution;
  o.hypothesis = p.reference_hypothesis;
  o.gravity = p.gravity;
  return RigidImpactSequence(c.bodies[0], c.walls, o);
}

RigidBodyState2D EllipseBoxInitialRigidState(const EllipseBoxParameters& p) {
  RigidBodyState2D s;
  s.x = {p.x0, p.y0};
  s.theta = p.alpha_deg * std::numbers::pi / 180.0;
  s.v = {p.vx, p.vy};
  s.omega = p.omega;
  return s;
}

}  // namespace impactlab
