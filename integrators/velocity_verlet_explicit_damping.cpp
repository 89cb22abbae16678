#include "integrators/velocity_verlet_explicit_damping.h"

namespace impactlab {

IntegratorTraits VelocityVerletExplicitDamping::traits() const {
  IntegratorTraits t;
  t.order = 2;  // conservative forces; 1 with dampers (header)
  t.symplectic = true;
  t.library = "impactlab";
  t.reference = "Verlet 1967; Swope, Andersen, Berens & Wilson 1982; LAMMPS fix nve/sphere (Thompson et al. 2022)";
  t.damping_treatment = "explicit: dampers see the half-step velocity, one force evaluation per step (first order)";
  return t;
}

StepResult VelocityVerletExplicitDamping::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  // Plain index loops, as velocity_verlet (the same operations in the same order: bitwise equal without dampers).
  const Eigen::Index nv = state.v.size();
  const MechanicalState& before = step_start();
  if (a0_.size() != nv) {
    a0_.resize(nv);
    a1_.resize(nv);
  }
  if (q_dot_.size() != state.q.size()) q_dot_.resize(state.q.size());
  double p0 = 0.0;
  if (cache_valid_ && cached_state_.SameValues(before)) {  // a_n = a(q_n, v_{n−½}) of the previous step
    a0_.swap(a1_);
    p0 = cached_power_;
  } else {
    system.Acceleration(before, a0_);
    ++stats_.rhs_evaluations;
    p0 = system.DissipationPower(before);
  }
  cache_valid_ = false;

  const double half_h = 0.5 * h;
  for (Eigen::Index i = 0; i < nv; ++i) state.v[i] = before.v[i] + half_h * a0_[i];  // v½
  system.PositionRate(state, q_dot_);
  for (Eigen::Index i = 0; i < q_dot_.size(); ++i) state.q[i] += h * q_dot_[i];
  state.t = before.t + h;
  system.NormalizeCoordinates(state);
  system.UpdateHistory(before, state);
  system.Acceleration(state, a1_);  // at (q_{n+1}, v½): the one force evaluation of the step
  ++stats_.rhs_evaluations;
  for (Eigen::Index i = 0; i < nv; ++i) state.v[i] += half_h * a1_[i];
  StepResult result;
  const double p1 = system.DissipationPower(state);
  state.dissipated = before.dissipated + half_h * (p0 + p1);
  cached_state_.AssignFrom(state);
  cached_power_ = p1;
  cache_valid_ = true;
  return result;
}

}  // namespace impactlab
