// Simulate: the fixed-step driver every study uses.
//
//   for n = 0 .. : Step(h) (halving h on kRetrySmallerStep, up to max_halvings, when adaptive_retry),
//                  locate contact events inside the step, notify observers.
//
// The step grid is t_n = n·dt (the last step shortened to end at t_end), or, with grid_offset θ ∈ (0, 1),
// t_n = (n + θ)·dt after a first step of θ·dt: the same step size with the events at other phases of
// the step (`impactlab converge --grid-shifts`, docs/convergence.md "Grid shifts").
//
// Event location. For each contact i the driver watches δ_i (start: ≤ 0 → > 0, end: > 0 → ≤ 0) and, inside
// a contact, δ̇_i (+ → −: maximum overlap). Events the integrator located itself (CVODE) are used as they are.
// Otherwise the state inside the step comes from the integrator's dense output when it has one, else from
// the cubic Hermite interpolant of (q, q̇) at both step ends (velocities interpolated with the Hermite
// interpolant of (v, v̇)), and the crossing is found with TOMS 748 to 1e-15 relative in t. Hermite
// interpolation is O(h⁴), so restitution is not limited to O(h) by step granularity.
#pragma once

#include <string>
#include <vector>

#include "integrators/integrator.h"
#include "observe/contact_event.h"
#include "observe/step_observer.h"

namespace impactlab {

struct SimulationOptions {
  double t_end = 1.0;          ///< [s] > 0
  double dt = 1e-3;            ///< [s] > 0
  bool adaptive_retry = true;  ///< halve dt on kRetrySmallerStep
  int max_halvings = 20;
  long max_steps = 50'000'000;
  bool locate_events = true;  ///< never for a RigidContactScheme (no compliant contact; rigid_contact_scheme.h)
  /// false: a located event keeps its contact, kind, t, δ, δ̇ and locator, but not the state there (q, v and z
  /// empty, state.t = t). A run of many bodies locates thousands of events, and each state is the whole q, v, z
  /// (64 kB for 2000 disks), so a consumer that reads no event state (disk_cloud's summary) turns them off.
  bool event_states = true;
  /// Stop this long after the last contact ended with no contact active (0 = run to t_end).
  double stop_after_separation = 0.0;
  /// θ in [0, 1): the grid t_n = (n + θ)·dt, first step θ·dt (0: the plain grid n·dt).
  double grid_offset = 0.0;
  /// false: a step that cannot be completed, or max_steps, throws StepFailure. true: the run ends there,
  /// observers are finished (so the results up to that time are written) and the record says why.
  bool return_on_failure = false;

  void Validate() const;
};

struct SimulationRecord {
  MechanicalState final_state;
  std::vector<ContactEvent> events;
  long steps = 0;
  double wall_time_s = 0.0;
  StepStatistics statistics;
  bool stopped_early = false;
  /// Empty when the run reached its end; else why it stopped (the StepFailure message; return_on_failure).
  std::string failure;
};

/// Runs `integrator` on `system` from `initial`. Throws StepFailure when a step cannot be completed.
SimulationRecord Simulate(const MechanicalSystem& system, Integrator& integrator, const MechanicalState& initial,
                          const SimulationOptions& options, const std::vector<StepObserver*>& observers);

/// True for schemes with a step-size stability limit the driver can check against
/// MechanicalSystem::CriticalTimeStep: explicit (not implicit), fixed-step (not adaptive), and not exact
/// (declared order > 0; order 0 marks the exact oscillator stepper).
bool IsConditionallyStable(const IntegratorTraits& traits);

/// The StepFailure message of a step that could not be completed: integrator, step number, t, dt, the
/// state (q, v; first entries only for big systems) and a likely cause (dt above the system's estimated
/// stability limit — printed — for explicit fixed-step schemes, NaN/Inf, Newton non-convergence).
std::string DescribeStepFailure(const MechanicalSystem& system, const Integrator& integrator,
                                const MechanicalState& state, long step, const SimulationOptions& options,
                                double h_last, int halvings, const StepResult& failed);
/// "[1, 2, 3, ... (40 entries)]".
std::string FormatVectorCompact(const Eigen::VectorXd& x, Eigen::Index max_entries = 6);

/// Cubic Hermite state between two step end points a and b at t ∈ [a.t, b.t]: q and v from their end values and
/// rates (q̇ = N(q) v, v̇ = a), z and the dissipated work linear, then NormalizeCoordinates. The end rates are
/// evaluated once, at construction, so that each At(t) of an event locator costs O(size of the state), not two force
/// evaluations. `system`, `a` and `b` must outlive the segment.
class HermiteSegment {
 public:
  HermiteSegment(const MechanicalSystem& system, const MechanicalState& a, const MechanicalState& b);
  MechanicalState At(double t) const;

 private:
  const MechanicalSystem& system_;
  const MechanicalState& a_;
  const MechanicalState& b_;
  Eigen::VectorXd qa_, qb_, va_, vb_;  ///< q̇ and v̇ at a and b
};

/// HermiteSegment(system, a, b).At(t) (used for event location and tests).
MechanicalState HermiteInterpolate(const MechanicalSystem& system, const MechanicalState& a,
                                   const MechanicalState& b, double t);

}  // namespace impactlab
