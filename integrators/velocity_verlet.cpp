#include "integrators/velocity_verlet.h"

#include <algorithm>

namespace impactlab {

IntegratorTraits VelocityVerlet::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.symplectic = true;
  t.library = "impactlab";
  t.reference = "Verlet 1967; Swope, Andersen, Berens & Wilson 1982 (velocity form)";
  t.damping_treatment = "implicit in the end-of-step velocity (fixed point), trapezoidal kick";
  return t;
}

StepResult VelocityVerlet::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  const Eigen::Index nv = state.v.size();
  a0_.resize(nv);
  a1_.resize(nv);
  q_dot_.resize(state.q.size());
  // a_n is the a_{n+1} of the previous step when the state is the one that step returned (FSAL).
  const bool reuse = cache_valid_ && cached_state_.t == state.t && cached_state_.q == state.q &&
                     cached_state_.v == state.v && cached_state_.z == state.z;
  if (reuse) {
    a0_.swap(a1_);
  } else {
    system.Acceleration(state, a0_);
    ++stats_.rhs_evaluations;
  }
  const MechanicalState& before = step_start();
  const double p0 = system.DissipationPower(before);

  v_half_ = state.v + 0.5 * h * a0_;
  state.v = v_half_;  // drift with the half-step velocity
  system.PositionRate(state, q_dot_);
  state.q += h * q_dot_;
  state.t = before.t + h;
  system.NormalizeCoordinates(state);
  system.UpdateHistory(before, state);

  // Implicit-in-velocity kick: v = v_half + h/2 a(q_{n+1}, v); explicit predictor v_half + h/2 a_n.
  state.v = v_half_ + 0.5 * h * a0_;
  StepResult result;
  const int max_iterations = system.velocity_dependent_forces() ? 50 : 1;
  for (int it = 0; it < max_iterations; ++it) {
    system.Acceleration(state, a1_);
    ++stats_.rhs_evaluations;
    v_new_ = v_half_ + 0.5 * h * a1_;
    result.newton_iterations = it + 1;
    if (max_iterations == 1) {
      state.v = v_new_;
      break;
    }
    const double change = (v_new_ - state.v).lpNorm<Eigen::Infinity>();
    // Relative to the size of the kick as well as of v: near maximum overlap v ≈ 0 while h/2·a is not.
    const double scale = std::max({v_new_.lpNorm<Eigen::Infinity>(), v_half_.lpNorm<Eigen::Infinity>(),
                                   0.5 * h * a1_.lpNorm<Eigen::Infinity>(), 1e-300});
    state.v = v_new_;
    if (change <= 1e-15 * scale) break;
    if (it == max_iterations - 1) {
      result.status = StepStatus::kRetrySmallerStep;
      result.message = "velocity fixed point did not converge (damping too stiff for h)";
      cache_valid_ = false;
      return result;
    }
  }
  state.dissipated = before.dissipated + 0.5 * h * (p0 + system.DissipationPower(state));
  cached_state_ = state;
  cached_state_.t = before.t + h;
  cache_valid_ = true;
  return result;
}

}  // namespace impactlab
