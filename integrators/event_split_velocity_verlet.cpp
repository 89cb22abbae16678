#include "integrators/event_split_velocity_verlet.h"

#include <algorithm>
#include <cmath>

namespace impactlab {

IntegratorTraits EventSplitVelocityVerlet::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.symplectic = false;  // sub-steps of state-dependent length
  t.locates_events = true;
  t.library = "impactlab";
  t.reference = "velocity Verlet with event-located sub-steps (docs/theory.md §12.3)";
  t.damping_treatment =
      "implicit in the end-of-sub-step velocity (fixed point), trapezoidal kick; one-sided (pre-/post-crossing) "
      "forces at located contact onsets and releases";
  return t;
}

void EventSplitVelocityVerlet::Drift(const MechanicalSystem& system, const MechanicalState& start,
                                     const Eigen::VectorXd& a_start, double tau, MechanicalState& out) {
  out = start;
  out.v = start.v + 0.5 * tau * a_start;  // v_½ of a sub-step of length τ
  system.PositionRate(out, q_dot_);
  out.q = start.q + tau * q_dot_;
  out.v = start.v + tau * a_start;  // for the overlap rate only
  out.t = start.t + tau;
  system.NormalizeCoordinates(out);
}

StepResult EventSplitVelocityVerlet::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  const Eigen::Index nv = state.v.size();
  const int nc = system.num_contacts();
  a0_.resize(nv);
  a1_.resize(nv);
  q_dot_.resize(state.q.size());
  const bool reuse = cache_valid_ && cached_state_.t == state.t && cached_state_.q == state.q &&
                     cached_state_.v == state.v && cached_state_.z == state.z;
  if (reuse) {
    a0_ = cached_a_;
  } else {
    system.Acceleration(state, a0_);
    ++stats_.rhs_evaluations;
  }
  cache_valid_ = false;
  double p0 = system.DissipationPower(state);

  side_.resize(nc);
  crossing_.Sides(system, state, side_);
  std::vector<char> end_in(nc);

  StepResult result;
  double remaining = h;
  int splits = 0;
  std::vector<char> starts_on(nc, 0);  // 1: the current sub-step starts on this contact's crossing
  for (;;) {
    sub_start_ = state;
    // --- earliest sign change of an overlap on the drift polynomial of the remaining interval ---
    int crossing = -1;
    double tau = remaining;
    if (nc > 0 && splits < kMaxSplits) {
      Drift(system, sub_start_, a0_, remaining, probe_);
      crossing_.Sides(system, probe_, end_in);
      const ContactCrossing::Crossing c = crossing_.LocateEarliest(
          side_, end_in, starts_on, remaining, h, [&](int i, double s) {
            Drift(system, sub_start_, a0_, s, probe_);
            return system.ContactOverlapOf(probe_, i).overlap;
          });
      crossing = c.contact;
      tau = c.tau;
    }

    // --- one velocity Verlet sub-step of length τ from (sub_start_, a0_, p0) ---
    v_half_ = sub_start_.v + 0.5 * tau * a0_;
    state.v = v_half_;
    system.PositionRate(state, q_dot_);
    state.q = sub_start_.q + tau * q_dot_;
    state.t = sub_start_.t + tau;
    system.NormalizeCoordinates(state);
    system.UpdateHistory(sub_start_, state);
    // End-of-sub-step forces: at a crossing, the one-sided limit of the side before it.
    auto end_state = [&]() -> const MechanicalState& {
      return crossing >= 0 ? crossing_.OneSided(system, state, crossing, side_[crossing], h) : state;
    };
    state.v = v_half_ + 0.5 * tau * a0_;
    const int max_iterations = system.velocity_dependent_forces() ? 50 : 1;
    for (int it = 0; it < max_iterations; ++it) {
      system.Acceleration(end_state(), a1_);
      ++stats_.rhs_evaluations;
      v_new_ = v_half_ + 0.5 * tau * a1_;
      result.newton_iterations += 1;
      if (max_iterations == 1) {
        state.v = v_new_;
        break;
      }
      const double change = (v_new_ - state.v).lpNorm<Eigen::Infinity>();
      // Scale includes the start and half-step velocities and the kick, so that a fixed point near v = 0
      // (maximum penetration) is not judged against a vanishing |v|.
      const double scale =
          std::max({v_new_.lpNorm<Eigen::Infinity>(), v_half_.lpNorm<Eigen::Infinity>(),
                    sub_start_.v.lpNorm<Eigen::Infinity>(), 0.5 * tau * a1_.lpNorm<Eigen::Infinity>(), 1e-300});
      state.v = v_new_;
      if (change <= 1e-15 * scale) break;
      if (it == max_iterations - 1) {
        result.status = StepStatus::kRetrySmallerStep;
        result.cause = StepFailureCause::kFixedPointNonConvergence;
        result.message = "velocity fixed point did not converge (damping too stiff for the sub-step)";
        return result;
      }
    }
    const double p1 = system.DissipationPower(end_state());
    state.dissipated = sub_start_.dissipated + 0.5 * tau * (p0 + p1);
    remaining -= tau;
    ++stats_.internal_steps;

    if (crossing < 0) {  // the sub-step reached the end of the step
      cached_state_ = state;
      cached_state_.t = step_start().t + h;
      cached_a_ = a1_;
      cache_valid_ = true;
      break;
    }
    LocatedEvent event;
    event.contact = crossing;
    event.entering = !side_[crossing];
    event.state = state;
    result.events.push_back(std::move(event));
    side_[crossing] = !side_[crossing];
    ++splits;
    if (remaining <= 0.0) break;  // crossing exactly at the step end
    // Start of the next sub-step: the one-sided limit of the side after the crossing.
    const MechanicalState& after = crossing_.OneSided(system, state, crossing, side_[crossing], h);
    system.Acceleration(after, a0_);
    ++stats_.rhs_evaluations;
    p0 = system.DissipationPower(after);
    std::fill(starts_on.begin(), starts_on.end(), 0);
    starts_on[crossing] = 1;
  }
  return result;
}

}  // namespace impactlab
