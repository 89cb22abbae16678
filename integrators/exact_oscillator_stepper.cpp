#include "integrators/exact_oscillator_stepper.h"

#include <cmath>
#include <string>

#include "core/errors.h"
#include "exact/feng_power_law_solution.h"
#include "exact/overdamped_contact_segment.h"
#include "system/power_law_oscillator_structure.h"

namespace impactlab {

namespace {

struct Advance {
  bool ok = true;
  std::string message;
  std::vector<LocatedEvent> events;
};

// Advances (δ, δ̇) by h exactly; `to_state` maps (t, δ, δ̇) back to a MechanicalState for event reports.
template <class ToState>
Advance AdvanceExactly(const PowerLawOscillatorParameters& o, std::optional<FengPowerLawSolution>& base, double t,
                       double& delta, double& delta_dot, double h, long& evaluations, ToState&& to_state) {
  Advance out;
  double remaining = h;
  // At most: free flight → entry → contact → exit → free flight (4 phases).
  for (int phase = 0; phase < 8 && remaining > 0.0; ++phase) {
    const bool in_contact = delta > 0.0 || (delta == 0.0 && delta_dot > 0.0);
    if (!in_contact) {
      if (delta_dot <= 0.0 || -delta >= delta_dot * remaining) {  // stays free during the rest of the step
        delta += delta_dot * remaining;
        return out;
      }
      const double t_hit = -delta / delta_dot;
      remaining -= t_hit;
      t += t_hit;
      delta = 0.0;
      out.events.push_back(LocatedEvent{0, true, to_state(t, delta, delta_dot)});
      continue;
    }
    FengPowerLawSolution::Backtrace bt;
    if (!FengPowerLawSolution::BacktraceState(o.mass, o.stiffness, o.exponent, o.alpha, delta, delta_dot, bt)) {
      // Over-damped state off every entry trajectory (past the slow eigen-direction): its own exact segment.
      if (!(o.alpha >= std::sqrt(2.0 * (o.exponent + 1.0)))) {
        out.ok = false;
        out.message = "cannot back-trace state (delta = " + InvalidParameter::FormatNumber(delta) +
                      ", delta_dot = " + InvalidParameter::FormatNumber(delta_dot) + ")";
        return out;
      }
      const OverdampedContactSegment seg(o.mass, o.stiffness, o.exponent, o.alpha, delta, delta_dot);
      ++evaluations;
      if (seg.exits() && remaining >= seg.time_to_exit()) {
        remaining -= seg.time_to_exit();
        t += seg.time_to_exit();
        delta = 0.0;
        delta_dot = seg.exit_velocity();
        out.events.push_back(LocatedEvent{0, false, to_state(t, delta, delta_dot)});
        continue;
      }
      const PowerLawContactState s = seg.StateAfter(remaining);
      delta = s.delta;
      delta_dot = s.delta_dot;
      return out;
    }
    // One solution object per oscillator, re-scaled to the back-traced impact speed (keeps J(π/2), J(π)).
    const auto& bp = base ? base->parameters() : FengPowerLawParameters{};
    if (!base || bp.mass != o.mass || bp.stiffness != o.stiffness || bp.exponent != o.exponent || bp.alpha != o.alpha) {
      FengPowerLawParameters fp;
      fp.mass = o.mass;
      fp.stiffness = o.stiffness;
      fp.exponent = o.exponent;
      fp.alpha = o.alpha;
      fp.impact_velocity = bt.impact_velocity;
      base.emplace(fp);
    }
    const FengPowerLawSolution sol = base->WithImpactVelocity(bt.impact_velocity);
    ++evaluations;
    if (sol.rebounds()) {
      FengPowerLawSolution::Phase phase = bt.phase;
      double to_exit = 0.0;
      if (!sol.AdvancePhase(phase, remaining, to_exit)) {  // separation inside the step
        remaining -= to_exit;
        t += to_exit;
        delta = 0.0;
        delta_dot = sol.exit_velocity();
        out.events.push_back(LocatedEvent{0, false, to_state(t, delta, delta_dot)});
        continue;
      }
      const PowerLawContactState s = sol.KinematicsAtPhase(phase);
      delta = s.delta;
      delta_dot = s.delta_dot;
      return out;
    }
    const PowerLawContactState s = sol.StateAtTime(sol.TimeAtPhase(bt.phase) + remaining);
    delta = s.delta;
    delta_dot = s.delta_dot;
    return out;
  }
  return out;
}

std::optional<PowerLawOscillatorParameters> Structure(const MechanicalSystem& system, std::string& why) {
  const auto* structure = dynamic_cast<const PowerLawOscillatorStructure*>(&system);
  if (!structure) {
    why = "system '" + system.name() + "' does not expose PowerLawOscillatorStructure";
    return std::nullopt;
  }
  return structure->PowerLawOscillator(&why);
}

double Energy(const PowerLawOscillatorParameters& o, double delta, double delta_dot) {
  const double w = delta > 0.0 ? o.stiffness * std::pow(delta, o.exponent + 1.0) / (o.exponent + 1.0) : 0.0;
  return 0.5 * o.mass * delta_dot * delta_dot + w;
}

}  // namespace

IntegratorTraits ExactOscillatorStepper::traits() const {
  IntegratorTraits t;
  t.order = 0;
  t.exact = true;  // no truncation error: exact up to quadrature / root-solve round-off (~1e-14)
  t.implicit = false;
  t.conserves_energy = true;
  t.locates_events = true;
  t.library = "impactlab + Boost.Math (tanh_sinh, Newton)";
  t.reference = "Feng, arXiv:2603.27764 (Seed001) exact phase-space solution; docs/theory.md §5";
  t.damping_treatment = "exact (Tsuji-form damping only)";
  return t;
}

StepResult ExactOscillatorStepper::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  StepResult result;
  std::string why;
  const auto o = Structure(system, why);
  // Bad input (a system this scheme cannot solve) is an InvalidParameter naming the integrator [errors.h].
  if (!o)
    throw InvalidParameter("integrator", "\"exact\"",
                           "a power-law oscillator with no or Tsuji-form damping and g = 0 (" + why + ")");
  // (PowerLawOscillatorStructure promises a 1-DOF system; only q[0], v[0] are read.)
  if (state.q.size() == 0 || state.v.size() == 0)
    throw InvalidParameter("integrator", "\"exact\"", "a 1-DOF system (q, v of size 1)");
  const double c = o->overlap_per_coordinate;
  const MechanicalState start = state;
  double delta = c * state.q[0], delta_dot = c * state.v[0];
  const double e_before = Energy(*o, delta, delta_dot);
  long evaluations = 0;
  auto to_state = [&](double t, double d, double dd) {
    MechanicalState s = start;
    s.t = t;
    s.q[0] = d / c;
    s.v[0] = dd / c;
    s.dissipated = start.dissipated + std::max(0.0, e_before - Energy(*o, d, dd));
    return s;
  };
  Advance adv = AdvanceExactly(*o, base_, state.t, delta, delta_dot, h, evaluations, to_state);
  stats_.rhs_evaluations += evaluations;
  if (!adv.ok) {
    result.status = StepStatus::kFailed;
    result.cause = StepFailureCause::kCannotBackTrace;
    result.message = adv.message;
    return result;
  }
  state.t = start.t + h;
  state.q[0] = delta / c;
  state.v[0] = delta_dot / c;
  // Exact energy drop (≥ 0 up to round-off; never negative by construction of the solution).
  state.dissipated = start.dissipated + std::max(0.0, e_before - Energy(*o, delta, delta_dot));
  result.events = std::move(adv.events);
  last_start_ = start;
  last_end_t_ = state.t;
  return result;
}

std::optional<MechanicalState> ExactOscillatorStepper::Interpolate(const MechanicalSystem& system, double t) const {
  if (!last_start_ || t < last_start_->t || t > last_end_t_) return std::nullopt;
  std::string why;
  const auto o = Structure(system, why);
  if (!o) return std::nullopt;
  const double c = o->overlap_per_coordinate;
  double delta = c * last_start_->q[0], delta_dot = c * last_start_->v[0];
  const double e_before = Energy(*o, delta, delta_dot);
  long unused = 0;
  auto to_state = [&](double, double, double) { return *last_start_; };
  if (t > last_start_->t) {
    const Advance adv =
        AdvanceExactly(*o, base_, last_start_->t, delta, delta_dot, t - last_start_->t, unused, to_state);
    if (!adv.ok) return std::nullopt;
  }
  MechanicalState s = *last_start_;
  s.t = t;
  s.q[0] = delta / c;
  s.v[0] = delta_dot / c;
  s.dissipated = last_start_->dissipated + std::max(0.0, e_before - Energy(*o, delta, delta_dot));
  return s;
}

}  // namespace impactlab
