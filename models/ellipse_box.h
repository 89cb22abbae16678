// EllipseBox: the carom problem of Seed003 §6.1 (docs/theory.md §8 "Carom test"): one rigid ellipse in a square
// box of side L (walls x = 0, x = L, y = 0, y = L, normals pointing inwards), penalty contact with Coulomb
// friction, optional gravity −g ŷ. Defaults: semi-axes 0.075 / 0.03 m (the seed's "axes 15/6 cm" read as
// full axes), L = 1 m, centre (0.45, 0.1) m, inclination α = 50° (counter-clockwise, major axis),
// v = (1, −0.4) m/s, no spin, μ = tan 15°, m = 1 kg (not stated in the seed; the rigid reference is
// mass-independent once K/m is fixed), g = 0 (not stated; docs/theory.md's first-impact numbers are without
// gravity), K_N = K_T = 1e6 N/m, ξ_N = ξ_T = 0 (so the penalty normal response is elastic, e = 1).
// Also builds the matching rigid reference (Routh impacts chained with free flight).
#pragma once

#include <memory>

#include "core/parameter_set.h"
#include "models/planar_ellipses.h"
#include "planar/rigid_impact_sequence.h"

namespace impactlab {

struct EllipseBoxParameters {
  double semi_axis_a = 0.075, semi_axis_b = 0.03, mass = 1.0, box = 1.0;
  double x0 = 0.45, y0 = 0.1, alpha_deg = 50.0, vx = 1.0, vy = -0.4, omega = 0.0;
  double gravity = 0.0;
  PlanarPenalty penalty{1e6, 1e6, 0.0, 0.0, 0.2679491924311227};
  /// Reference impact law: restitution of the rigid reference and its hypothesis.
  double reference_restitution = 1.0;
  RestitutionHypothesis reference_hypothesis = RestitutionHypothesis::kStronge;

  /// Reads keys a, b, m, box, x0, y0, alpha_deg, vx, vy, omega, gravity, K_N, K_T, xi_N, xi_T, mu |
  /// friction_angle_deg, reference_e, reference_hypothesis (all optional).
  static EllipseBoxParameters FromParameterSet(const ParameterSet& p);
};

PlanarEllipsesConfig MakeEllipseBoxConfig(const EllipseBoxParameters& p);
/// The rigid reference of the same problem.
RigidImpactSequence MakeEllipseBoxReference(const EllipseBoxParameters& p);
RigidBodyState2D EllipseBoxInitialRigidState(const EllipseBoxParameters& p);

}  // namespace impactlab
