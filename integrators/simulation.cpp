#include "integrators/simulation.h"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <utility>

#include "core/checks.h"
#include "integrators/rigid_energy_view.h"

namespace impactlab {

void SimulationOptions::Validate() const {
  RequirePositive("t_end", t_end);
  RequirePositive("dt", dt);
  if (max_halvings < 0) throw InvalidParameter("max_halvings", max_halvings, ">= 0");
  if (!(grid_offset >= 0.0 && grid_offset < 1.0)) throw InvalidParameter("grid_offset", grid_offset, "in [0, 1)");
}

HermiteSegment::HermiteSegment(const MechanicalSystem& system, const MechanicalState& a, const MechanicalState& b)
    : system_(system), a_(a), b_(b), qa_(a.q.size()), qb_(b.q.size()), va_(a.v.size()), vb_(b.v.size()) {
  system.PositionRate(a, qa_);
  system.PositionRate(b, qb_);
  system.Acceleration(a, va_);
  system.Acceleration(b, vb_);
}

MechanicalState HermiteSegment::At(double t) const {
  const MechanicalState& a = a_;
  const MechanicalState& b = b_;
  const double h = b.t - a.t;
  const double s = (t - a.t) / h;
  const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
  const double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
  MechanicalState out = a;
  out.t = t;
  out.q = h00 * a.q + h10 * h * qa_ + h01 * b.q + h11 * h * qb_;
  out.v = h00 * a.v + h10 * h * va_ + h01 * b.v + h11 * h * vb_;
  out.z = (1 - s) * a.z + s * b.z;
  out.dissipated = (1 - s) * a.dissipated + s * b.dissipated;
  system_.NormalizeCoordinates(out);
  return out;
}

MechanicalState HermiteInterpolate(const MechanicalSystem& system, const MechanicalState& a,
                                   const MechanicalState& b, double t) {
  return HermiteSegment(system, a, b).At(t);
}

namespace {

using Reading = MechanicalSystem::ContactReading;

/// The touching contacts (δ ≥ 0) of s, ascending, into `out`, reusing its storage (the step loop measures once per
/// step; the contacts not listed are apart, so the driver's work per step follows the touching set, not
/// num_contacts()).
void MeasureInto(const MechanicalSystem& system, const MechanicalState& s, std::vector<Reading>& out) {
  if (system.num_contacts() > 0) system.TouchingContacts(s, out);
  else out.clear();
}

// Find t in (a.t, b.t] with f(state(t)) = 0 given a sign change of f between the ends. `hermite`: the step's
// Hermite segment, built at its first use and shared by the events of the step.
ContactEvent LocateEvent(const MechanicalSystem& system, const Integrator& integrator, const MechanicalState& a,
                         const MechanicalState& b, int contact, ContactEventKind kind, bool use_rate,
                         std::optional<HermiteSegment>& hermite) {
  std::string located_by = "hermite";
  auto state_at = [&](double t) {
    if (auto s = integrator.Interpolate(system, t)) {
      located_by = "dense_output";
      return *s;
    }
    if (!hermite) hermite.emplace(system, a, b);
    return hermite->At(t);
  };
  auto f = [&](double t) {
    const Reading r = system.ContactOverlapOf(state_at(t), contact);
    return use_rate ? r.rate : r.overlap;
  };
  double fa = f(a.t), fb = f(b.t);
  double t_event = b.t;
  if (fa != 0.0 && fb != 0.0 && (fa < 0) != (fb < 0)) {
    boost::uintmax_t iters = 200;
    auto tol = [](double l, double r) { return std::abs(r - l) <= 1e-15 * std::max(std::abs(l), std::abs(r)); };
    try {
      auto [lo, hi] = boost::math::tools::toms748_solve(f, a.t, b.t, fa, fb, tol, iters);
      t_event = 0.5 * (lo + hi);
    } catch (const std::exception&) {
      t_event = b.t;
    }
  } else if (fa == 0.0) {
    t_event = a.t;
  }
  ContactEvent ev;
  ev.contact = contact;
  ev.kind = kind;
  ev.t = t_event;
  ev.state = state_at(t_event);
  const Reading r = system.ContactOverlapOf(ev.state, contact);
  ev.overlap = r.overlap;
  ev.overlap_rate = r.rate;
  ev.located_by = located_by;
  return ev;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string FormatVectorCompact(const Eigen::VectorXd& x, Eigen::Index max_entries) {
  std::string s = "[";
  const Eigen::Index n = x.size(), shown = std::min(n, max_entries);
  for (Eigen::Index i = 0; i < shown; ++i) s += (i ? ", " : "") + Num(x[i]);
  if (shown < n) s += ", ... (" + std::to_string(n) + " entries)";
  return s + "]";
}

bool IsConditionallyStable(const IntegratorTraits& traits) {
  return !traits.implicit && !traits.adaptive && !traits.exact;
}

std::string DescribeStepFailure(const MechanicalSystem& system, const Integrator& integrator,
                                const MechanicalState& state, long step, const SimulationOptions& options,
                                double h_last, int halvings, const StepResult& failed) {
  std::string msg = "integrator '" + integrator.name() + "' cannot complete step " + std::to_string(step) +
                    " at t = " + Num(state.t) + " (dt = " + Num(options.dt) + ", last h = " + Num(h_last) +
                    " after " + std::to_string(halvings) + " halvings): " + failed.message + " [" + std::string(ToString(failed.cause)) + "]; state q = " +
                    FormatVectorCompact(state.q) + ", v = " + FormatVectorCompact(state.v) + "; likely cause: ";
  const bool non_finite = failed.cause == StepFailureCause::kNonFiniteState ||
                          failed.cause == StepFailureCause::kNewtonNonFiniteResidual || !state.IsFinite();
  const bool newton = failed.cause == StepFailureCause::kNewtonNonConvergence ||
                      failed.cause == StepFailureCause::kSingularNewtonMatrix ||
                      failed.cause == StepFailureCause::kKinsolFailure;
  std::optional<double> crit;
  try {
    crit = system.CriticalTimeStep(state);
  } catch (const std::exception&) {
    crit.reset();  // the estimate is advisory: a state it cannot handle must not mask the failure
  }
  if (crit && options.dt > *crit && IsConditionallyStable(integrator.traits())) {
    msg += "dt = " + Num(options.dt) + " is above the estimated stability limit " + Num(*crit) +
           " s of this explicit scheme (reduce dt below it)";
  } else if (non_finite) {
    msg += "the step produced NaN/Inf: dt too large for the contact stiffness (unstable explicit step) or an "
           "unphysically deep overlap";
    if (crit) msg += " (estimated stability limit " + Num(*crit) + " s)";
  } else if (newton) {
    msg += "the implicit solve does not converge at this step size: reduce dt, or raise newton_max_iterations";
  } else {
    msg += "the integrator rejected the step even at the smallest retry size";
  }
  return msg;
}

SimulationRecord Simulate(const MechanicalSystem& system, Integrator& integrator, const MechanicalState& initial,
                          const SimulationOptions& options, const std::vector<StepObserver*>& observers) {
  options.Validate();
  const auto wall_start = std::chrono::steady_clock::now();
  integrator.Reset();
  integrator.ResetStatistics();
  SimulationRecord record;
  MechanicalState state = initial;
  // Observers of a rigid-contact scheme see the rigid problem's energy books (integrators/rigid_energy_view.h).
  std::optional<RigidEnergyView> rigid_view;
  if (const auto* rigid = dynamic_cast<const RigidContactScheme*>(&integrator)) rigid_view.emplace(system, *rigid);
  const MechanicalSystem& observed = rigid_view ? static_cast<const MechanicalSystem&>(*rigid_view) : system;
  for (auto* o : observers) o->OnStart(observed, state);

  // The touching contacts (δ ≥ 0) at the step start and end; a contact counts as in contact at δ > 0, or at δ ≥ 0
  // for a rigid-contact scheme (its solution touches at δ = 0 to round-off).
  std::vector<Reading> previous, now;
  MeasureInto(system, state, previous);
  auto closed = [&](const Reading& r) { return rigid_view ? r.overlap >= 0.0 : r.overlap > 0.0; };
  auto any_closed = [&](const std::vector<Reading>& list) { return std::any_of(list.begin(), list.end(), closed); };
  bool any_in_contact = any_closed(previous);
  double last_separation = -1.0;
  bool ever_contact = false;

  // Grid t_next(n) = (n + 1 + shift)·dt; shift = θ − 1 puts the first step end at θ·dt (θ = 0: the plain grid).
  const double shift = options.grid_offset > 0.0 ? options.grid_offset - 1.0 : 0.0;
  const long n_nominal = static_cast<long>(std::ceil(options.t_end / options.dt - shift - 1e-9));
  auto fail = [&](const std::string& why) {
    if (!options.return_on_failure) throw StepFailure(why);
    record.failure = why;
  };
  // Kept across steps so that a step allocates nothing here once sizes are known (docs/performance.md).
  MechanicalState before;
  for (long n = 0; n < n_nominal && record.failure.empty(); ++n) {
    if (record.steps >= options.max_steps) {
      fail("max_steps = " + std::to_string(options.max_steps) + " reached at t = " + Num(state.t) + " s of t_end = " +
           Num(options.t_end) + " s");
      break;
    }
    const double t_next = std::min(options.t_end, (n + 1 + shift) * options.dt);
    // Sub-steps of the nominal step (more than one only after a retry).
    while (state.t < t_next * (1 - 1e-15) - 1e-300) {
      double h = t_next - state.t;
      before.AssignFrom(state);
      StepResult result;
      int halvings = 0;
      for (;;) {
        result = integrator.Step(system, state, h);
        if (result.status == StepStatus::kAccepted) break;
        if (result.status == StepStatus::kFailed || !options.adaptive_retry || halvings >= options.max_halvings) {
          fail(DescribeStepFailure(system, integrator, state, record.steps + 1, options, h, halvings, result));
          break;
        }
        h *= 0.5;
        ++halvings;
      }
      if (!record.failure.empty()) break;
      ++record.steps;
      // --- events inside (before.t, state.t] ---
      MeasureInto(system, state, now);
      // A rigid-contact scheme has no compliant contact to locate: its overlaps δ > 0 are penetrations inside an
      // impact step (Moreau–Jean) or none (event-driven), and a "restitution" from them would not be its e.
      if (options.locate_events && !rigid_view) {
        // Every contact touching at either end, ascending: the others are apart at both ends and have no event.
        std::optional<HermiteSegment> hermite;  // of (before, state), built by the first event located on it
        size_t a = 0, b = 0;
        while (a < previous.size() || b < now.size()) {
          const int i = b == now.size() || (a < previous.size() && previous[a].contact < now[b].contact)
                            ? previous[a].contact
                            : now[b].contact;
          const Reading* p = nullptr;
          const Reading* c = nullptr;
          if (a < previous.size() && previous[a].contact == i) p = &previous[a++];
          if (b < now.size() && now[b].contact == i) c = &now[b++];
          const bool was = p && p->overlap > 0.0, is = c && c->overlap > 0.0;
          std::vector<ContactEvent> found;
          const LocatedEvent* by_integrator_start = nullptr;
          const LocatedEvent* by_integrator_end = nullptr;
          for (const auto& le : result.events)
            if (le.contact == i) (le.entering ? by_integrator_start : by_integrator_end) = &le;
          auto from_integrator = [&](const LocatedEvent& le, ContactEventKind kind) {
            ContactEvent ev;
            ev.contact = i;
            ev.kind = kind;
            ev.t = le.state.t;
            ev.state = le.state;
            const Reading r = system.ContactOverlapOf(le.state, i);
            ev.overlap = r.overlap;
            ev.overlap_rate = r.rate;
            ev.located_by = "integrator";
            return ev;
          };
          if (!was && is) {
            found.push_back(by_integrator_start ? from_integrator(*by_integrator_start, ContactEventKind::kStart)
                                                : LocateEvent(system, integrator, before, state, i,
                                                              ContactEventKind::kStart, false, hermite));
          } else if (was && !is) {
            if (p->rate > 0.0)  // peak and exit in the same step (very coarse steps)
              found.push_back(
                  LocateEvent(system, integrator, before, state, i, ContactEventKind::kMaxOverlap, true, hermite));
            found.push_back(by_integrator_end ? from_integrator(*by_integrator_end, ContactEventKind::kEnd)
                                              : LocateEvent(system, integrator, before, state, i,
                                                            ContactEventKind::kEnd, false, hermite));
          } else if (was && is && p->rate > 0.0 && c->rate <= 0.0) {
            found.push_back(
                LocateEvent(system, integrator, before, state, i, ContactEventKind::kMaxOverlap, true, hermite));
          }
          for (auto& ev : found) {
            if (!options.event_states) {
              ev.state = MechanicalState{};
              ev.state.t = ev.t;
            }
            if (ev.kind == ContactEventKind::kStart) ever_contact = true;
            if (ev.kind == ContactEventKind::kEnd) last_separation = ev.t;
            for (auto* o : observers) o->OnEvent(observed, ev);
            record.events.push_back(std::move(ev));
          }
        }
        any_in_contact = any_closed(now);
      }
      if (rigid_view) {
        // Rigid contact: touching (δ ≥ 0, to round-off the rigid solution's gap) counts as contact, opening ends it;
        // no event is located, but stop_after_separation works as for the compliant schemes. Both lists hold
        // exactly the contacts with δ ≥ 0: one that opened is in `previous` and not in `now`.
        if (!now.empty()) ever_contact = true;
        size_t b = 0;
        for (const Reading& p : previous) {
          while (b < now.size() && now[b].contact < p.contact) ++b;
          if (b == now.size() || now[b].contact != p.contact) last_separation = state.t;
        }
        any_in_contact = any_closed(now);
      }
      std::swap(previous, now);  // `now` is measured again before it is read
      for (auto* o : observers) o->OnStep(observed, state);
    }
    if (options.stop_after_separation > 0.0 && ever_contact && last_separation >= 0.0 &&
        state.t - last_separation >= options.stop_after_separation) {
      if (!any_in_contact) {
        record.stopped_early = true;
        break;
      }
    }
  }
  for (auto* o : observers) o->OnFinish(observed, state);
  record.final_state = state;
  record.statistics = integrator.statistics();
  record.wall_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return record;
}

}  // namespace impactlab
