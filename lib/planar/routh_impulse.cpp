#include "planar/routh_impulse.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/checks.h"
#include "planar/ellipse.h"

namespace impactlab {

RestitutionHypothesis ParseRestitutionHypothesis(const std::string& key, const std::string& value) {
  if (value == "newton") return RestitutionHypothesis::kNewton;
  if (value == "poisson") return RestitutionHypothesis::kPoisson;
  if (value == "stronge") return RestitutionHypothesis::kStronge;
  throw InvalidParameter(key, value, "\"newton\", \"poisson\" or \"stronge\"");
}

RouthImpactResult SolveRouthImpact(const RouthImpactInput& in) {
  RequirePositive("mass", in.mass);
  RequirePositive("inertia", in.inertia);
  RequireNonNegative("mu", in.friction);
  RequireInClosed("e", in.restitution, 0.0, 1.0);
  const Eigen::Vector2d n = in.normal.normalized();
  const Eigen::Vector2d t = Perp(n);
  const double rt = Cross2(in.lever, t), rn = Cross2(in.lever, n);
  const double wtt = 1.0 / in.mass + rt * rt / in.inertia;
  const double wtn = rt * rn / in.inertia;
  const double wnn = 1.0 / in.mass + rn * rn / in.inertia;
  const Eigen::Vector2d u0 = in.velocity + in.omega * Perp(in.lever);
  double ut = t.dot(u0), un = n.dot(u0);
  RouthImpactResult res;
  res.normal_velocity_before = un;
  if (!(un < 0.0)) throw InvalidParameter("normal_velocity", un, "< 0 (approaching contact point)");
  const double mu = in.friction, e = in.restitution;
  const double scale = std::abs(un) + std::abs(ut);
  const double tiny = 1e-14 * scale;
  double pt = 0.0, pn = 0.0, work = 0.0, pc = -1.0, wc = 0.0;
  bool compressing = true;
  bool stick = false;
  double slip_dir = 0.0;
  for (int seg = 0; seg < 16; ++seg) {
    res.segments = seg + 1;
    // Friction slope of this segment.
    double slope;
    if (!stick && std::abs(ut) > tiny) {
      slip_dir = ut > 0.0 ? 1.0 : -1.0;
      slope = -mu * slip_dir;
    } else {
      ut = 0.0;
      if (std::abs(wtn) <= mu * wtt) {
        stick = true;
        res.stuck = true;
        slope = -wtn / wtt;
      } else {
        const double s = wtn > 0.0 ? 1.0 : -1.0;
        if (slip_dir != 0.0 && s != slip_dir) res.reversed = true;
        slip_dir = s;
        slope = -mu * s;
      }
    }
    const double at = stick ? 0.0 : wtt * slope + wtn;
    const double an = wnn + wtn * slope;
    if (!(an > 0.0)) throw InvalidParameter("du_n/dP_n", an, "> 0 (Routh jam: the normal impulse cannot grow)");
    // Candidate impulse increments.
    double dp = std::numeric_limits<double>::infinity();
    int which = 0;  // 1 slip stops, 2 compression ends, 3 termination
    if (!stick && at * ut < 0.0) {
      dp = -ut / at;
      which = 1;
    }
    if (compressing) {
      const double d = -un / an;
      if (d <= dp) {
        dp = d;
        which = 2;
      }
    } else {
      double d = 0.0;
      switch (in.hypothesis) {
        case RestitutionHypothesis::kNewton: d = (-e * res.normal_velocity_before - un) / an; break;
        case RestitutionHypothesis::kPoisson: d = (1.0 + e) * pc - pn; break;
        case RestitutionHypothesis::kStronge: {
          const double target = e * e * std::abs(wc) - (work - wc);
          d = (-un + std::sqrt(std::max(0.0, un * un + 2.0 * an * target))) / an;
          break;
        }
      }
      d = std::max(d, 0.0);
      if (d <= dp) {
        dp = d;
        which = 3;
      }
    }
    work += un * dp + 0.5 * an * dp * dp;
    ut += at * dp;
    un += an * dp;
    pt += slope * dp;
    pn += dp;
    if (which == 1) {
      ut = 0.0;
    } else if (which == 2) {
      un = 0.0;
      pc = pn;
      wc = work;
      compressing = false;
    } else if (which == 3) {
      break;
    }
  }
  const Eigen::Vector2d p = pt * t + pn * n;
  res.velocity = in.velocity + p / in.mass;
  res.omega = in.omega + Cross2(in.lever, p) / in.inertia;
  res.normal_impulse = pn;
  res.tangential_impulse = pt;
  res.compression_impulse = pc;
  res.normal_velocity_after = un;
  const double k0 = 0.5 * in.mass * in.velocity.squaredNorm() + 0.5 * in.inertia * in.omega * in.omega;
  const double k1 = 0.5 * in.mass * res.velocity.squaredNorm() + 0.5 * in.inertia * res.omega * res.omega;
  res.kinetic_energy_ratio = k1 / k0;
  return res;
}

}  // namespace impactlab
