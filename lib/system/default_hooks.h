// DefaultHooks: which optional hooks of a MechanicalSystem a model leaves at their defaults, declared once by the
// model so that a generic step may skip the calls.
//
//   position_rate_is_velocity    PositionRate is the default q̇ = v
//   no_coordinate_normalization  NormalizeCoordinates is the default no-op
//   no_discrete_history          UpdateHistory is the default no-op
//   no_dissipation               DissipationPower(s) == 0 for every finite state s
//
// Why: for one- and few-dof models the virtual calls with their Eigen::Ref set-up cost more than the arithmetic
// of an explicit step (velocity Verlet on the 1-D Hertz oscillator, docs/performance.md). A skipped hook must give
// the same numbers as the call: q̇ = v is used directly, a no-op is not called, a zero power is added as 0.0.
// The default is conservative (every field false: every hook is called), so a model that overrides a hook and does
// not declare anything, or a wrapper that forwards the hooks, is always correct. Like
// MechanicalSystem::velocity_dependent_forces() this is a promise; tests/lib/default_hooks_test.cpp checks the
// promises of the models that make them.
#pragma once

namespace impactlab {

struct DefaultHooks {
  bool position_rate_is_velocity = false;
  bool no_coordinate_normalization = false;
  bool no_discrete_history = false;
  bool no_dissipation = false;
};

}  // namespace impactlab
