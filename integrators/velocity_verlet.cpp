#include "integrators/velocity_verlet.h"

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
  Eigen::VectorXd a0(nv);
  if (cache_valid_ && cached_state_.t == state.t && cached_state_.q == state.q && cached_state_.v == state.v &&
      cached_state_.z == state.z) {
    a0 = cached_acceleration_;
  } else {
    system.Acceleration(state, a0);
    ++stats_.rhs_evaluations;
  }
  const MechanicalState before = state;
  const double p0 = system.DissipationPower(before);

  const Eigen::VectorXd v_half = state.v + 0.5 * h * a0;
  Eigen::VectorXd q_dot(state.q.size());
  MechanicalState drift = state;
  drift.v = v_half;
  system.PositionRate(drift, q_dot);
  state.q += h * q_dot;
  state.t = before.t + h;
  system.NormalizeCoordinates(state);
  system.UpdateHistory(before, state);

  // Implicit-in-velocity kick: v = v_half + h/2 a(q_{n+1}, v).
  Eigen::VectorXd a1(nv);
  state.v = v_half + 0.5 * h * a0;  // explicit predictor
  StepResult result;
  const int max_iterations = system.velocity_dependent_forces() ? 50 : 1;
  for (int it = 0; it < max_iterations; ++it) {
    system.Acceleration(state, a1);
    ++stats_.rhs_evaluations;
    const Eigen::VectorXd v_new = v_half + 0.5 * h * a1;
    const double change = (v_new - state.v).lpNorm<Eigen::Infinity>();
    const double scale = std::max(v_new.lpNorm<Eigen::Infinity>(), 1e-300);
    state.v = v_new;
    result.newton_iterations = it + 1;
    if (max_iterations == 1 || change <= 1e-15 * scale) break;
    if (it == max_iterations - 1) {
      result.status = StepStatus::kRetrySmallerStep;
      result.message = "velocity fixed point did not converge (damping too stiff for h)";
      return result;
    }
  }
  state.dissipated = before.dissipated + 0.5 * h * (p0 + system.DissipationPower(state));

  cached_state_ = state;
  cached_acceleration_ = a1;
  cache_valid_ = true;
  return result;
}

}  // namespace impactlab
