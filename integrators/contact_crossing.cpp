#include "integrators/contact_crossing.h"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <exception>

namespace impactlab {

void ContactCrossing::Sides(const MechanicalSystem& system, const MechanicalState& s, std::vector<char>& side) {
  const int nc = system.num_contacts();
  if (nc <= 0) return;
  std::fill(side.begin(), side.begin() + nc, 0);
  system.TouchingContacts(s, touching_);
  for (const MechanicalSystem::ContactReading& r : touching_)
    if (r.overlap > 0.0) side[static_cast<size_t>(r.contact)] = 1;
}

ContactCrossing::Crossing ContactCrossing::LocateEarliest(const std::vector<char>& side,
                                                          const std::vector<char>& end_in,
                                                          const std::vector<char>& starts_on, double remaining,
                                                          double h, const EventAt& event_at) {
  Crossing earliest;
  earliest.tau = remaining;
  const int ne = static_cast<int>(side.size());
  for (int i = 0; i < ne; ++i) {
    if (end_in[i] == side[i]) continue;
    auto f = [&](double s) { return event_at(i, s); };
    // Left end of the bracket: τ = 0, or (when the start state is only at δ = 0 to root tolerance, e.g. right
    // after a crossing) the first point a one-sided offset into the sub-step.
    double left = 0.0;
    double f_left = starts_on[i] ? 0.0 : f(left);
    if (starts_on[i] || (f_left > 0.0) != static_cast<bool>(side[i])) {
      left = std::min(kOneSidedFraction * h, 0.5 * remaining);
      f_left = f(left);
      if ((f_left > 0.0) != static_cast<bool>(side[i])) continue;  // grazing: no resolvable crossing
    }
    const double f_right = f(remaining);
    double root = remaining;
    if (f_left == 0.0) {
      root = left;
    } else if (f_right != 0.0) {
      boost::uintmax_t iterations = 200;
      const double tol_abs = 1e-15 * h;
      auto tol = [tol_abs](double l, double r) { return std::abs(r - l) <= tol_abs; };
      try {
        const auto [lo, hi] = boost::math::tools::toms748_solve(f, left, remaining, f_left, f_right, tol, iterations);
        root = 0.5 * (lo + hi);
      } catch (const std::exception&) {
        continue;  // no bracket after all (round-off): no split for this contact
      }
    }
    if (root < earliest.tau || earliest.contact < 0) {
      earliest.tau = root;
      earliest.contact = i;
    }
  }
  return earliest;
}

const MechanicalState& ContactCrossing::OneSided(const MechanicalSystem& system, const MechanicalState& s,
                                                 int contact, bool in, double h) {
  const double first = ((system.ContactOverlapOf(s, contact).rate >= 0.0) == in) ? 1.0 : -1.0;
  qd_.resize(s.q.size());
  system.PositionRate(s, qd_);
  for (double eps = kOneSidedFraction * h; eps <= 1e-5 * h * (1 + 1e-9); eps *= 10.0) {
    for (double dir : {first, -first}) {
      displaced_ = s;
      displaced_.q = s.q + dir * eps * qd_;
      system.NormalizeCoordinates(displaced_);
      if ((system.ContactOverlapOf(displaced_, contact).overlap > 0.0) == in) return displaced_;
    }
  }
  displaced_ = s;
  return displaced_;
}

const MechanicalState& ContactCrossing::PinnedSide(const MechanicalSystem& system, const MechanicalState& s,
                                                   int contact, bool in, double h) {
  MechanicalSystem::ContactReading r = system.ContactOverlapOf(s, contact);
  // Strictly on the wanted side: δ = 0 exactly belongs to neither (a model may apply its δ → 0⁺ limit there,
  // e.g. ellipsoid_wall's damper at δ ≥ 0), so it is displaced like a state on the wrong side.
  if (in ? r.overlap > 0.0 : r.overlap < 0.0) return s;
  // Newton on σ ↦ δ_i(q + σ q̇): the crossing of the line through s along its own drift.
  projected_ = s;
  pinned_qd_.resize(s.q.size());
  system.PositionRate(s, pinned_qd_);
  double sigma = 0.0;
  double delta = r.overlap, delta_rate = r.rate;
  for (int it = 0; it < 30; ++it) {
    if (!(delta_rate != 0.0) || !std::isfinite(delta)) return s;
    const double step = -delta / delta_rate;
    sigma += step;
    if (!(std::abs(sigma) <= h)) return s;  // not a near-crossing state: leave it as it is
    projected_.q = s.q + sigma * pinned_qd_;
    system.NormalizeCoordinates(projected_);
    r = system.ContactOverlapOf(projected_, contact);
    delta = r.overlap;
    delta_rate = r.rate;
    if (std::abs(step) <= 1e-3 * kOneSidedFraction * h) break;
  }
  return OneSided(system, projected_, contact, in, h);
}

}  // namespace impactlab
