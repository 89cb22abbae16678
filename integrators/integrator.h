// Integrator: one time-stepping scheme behind one interface (NVI, result as a value).
//
//   StepResult Step(system, state, h)   advances state from t to t + h (exactly: state.t = t + h on success)
//
// The non-virtual Step validates h (finite, > 0), calls DoStep, checks the new state is finite, and on any
// status other than kAccepted restores the state exactly (history variables included), so a driver can
// retry with a smaller step (SUNDIALS' accepted / retry-smaller / fail rule; Drake's Step/DoStep).
// Adaptive schemes take internal sub-steps inside Step(h) and expose the last step's dense output.
//
// Schemes that reuse values of their previous step (first same as last, FSAL) call KeepReturnedState() in their
// constructor. Step() then keeps the state it returned as the next step's rollback copy and, when handed a state,
// compares it bit for bit with that copy instead of copying it: one pass over the state instead of the rollback copy,
// the scheme's own compare and its own copy of the returned state. resumes_returned_state() tells DoStep whether the
// state is the one the previous accepted step returned (any change of t, q, v or z, a rejected step or another
// system makes it false).
//
// Declared traits are what the literature claims; the test-suite measures orders and never reads them
// as truth [docs/theory.md §12.9].
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "integrators/step_failure_cause.h"
#include "state/mechanical_state.h"
#include "system/mechanical_system.h"

namespace impactlab {

struct NewtonReport;

enum class StepStatus { kAccepted, kRetrySmallerStep, kFailed };

/// A contact event located by the integrator itself (e.g. CVODE's root finding) inside a step.
struct LocatedEvent {
  int contact = 0;        ///< contact index
  bool entering = false;  ///< true: δ crosses 0 upwards (contact starts); false: contact ends
  MechanicalState state;  ///< state at the event
};

struct StepResult {
  StepStatus status = StepStatus::kAccepted;
  int newton_iterations = 0;
  double residual_norm = 0.0;
  StepFailureCause cause = StepFailureCause::kNone;  ///< why a step was not accepted (typed, never parsed)
  std::string message;              ///< human detail of `cause`
  std::vector<LocatedEvent> events;  ///< events the integrator located itself (may be empty)
};

struct IntegratorTraits {
  int order = 0;                    ///< nominal order of accuracy (declared, then measured by tests)
  bool implicit = false;
  bool symplectic = false;
  bool conserves_energy = false;    ///< exactly (to solver tolerance) for conservative systems
  bool conserves_momentum = false;  ///< linear/angular momentum for isolated systems
  bool adaptive = false;            ///< error-controlled internal sub-steps inside Step(h)
  bool locates_events = false;      ///< reports LocatedEvent for contact start/end
  bool exact = false;               ///< no truncation error (a closed-form stepper); `order` is then meaningless
  /// Works on dense n × n matrices of the whole system (n = q.size()): O(n²) memory and O(n³) time per
  /// factorisation, whatever the contact pattern (Siconos' one dynamical system; CVODE when its dense solver is
  /// asked for).
  bool dense_matrices = false;
  std::string library;              ///< "impactlab", "Boost.Odeint", "SUNDIALS CVODE", ...
  std::string reference;            ///< paper / book the scheme follows
  std::string damping_treatment;    ///< how velocity-dependent forces are evaluated
};

struct StepStatistics {
  long steps = 0;               ///< accepted Step() calls
  long rejected_steps = 0;      ///< Step() calls that returned retry/fail (plus internal rejections)
  long internal_steps = 0;      ///< internal sub-steps of adaptive schemes
  long rhs_evaluations = 0;     ///< evaluations of the acceleration a(t, q, v)
  long newton_iterations = 0;
  long jacobian_evaluations = 0;
};

class Integrator {
 public:
  virtual ~Integrator() = default;

  /// Advance `state` by h > 0. On a non-accepted status `state` is unchanged.
  [[nodiscard]] StepResult Step(const MechanicalSystem& system, MechanicalState& state, double h);

  /// Forget internal memory (multistep history, solver workspaces) before a new run.
  virtual void Reset() {}
  /// Dense output inside the last accepted step, where the scheme provides it (nullopt otherwise).
  virtual std::optional<MechanicalState> Interpolate(const MechanicalSystem& system, double t) const {
    (void)system;
    (void)t;
    return std::nullopt;
  }

  virtual std::string name() const = 0;
  virtual IntegratorTraits traits() const = 0;
  const StepStatistics& statistics() const { return stats_; }
  void ResetStatistics() { stats_ = {}; }

 protected:
  /// The state at the start of the current Step() (valid inside DoStep); kept in a member so that repeated
  /// steps reuse its storage instead of allocating. With KeepReturnedState() it holds the returned state after an
  /// accepted Step().
  const MechanicalState& step_start() const { return step_start_; }
  /// Opt-in for FSAL schemes (header comment); call in the constructor.
  void KeepReturnedState() { keeps_returned_state_ = true; }
  /// Inside DoStep of a scheme that called KeepReturnedState(): true when the state handed to this Step() has the
  /// bits (t, q, v, z) of the state the previous accepted Step() returned for the same system, with no rejected
  /// step in between. A scheme's Reset() must drop its own cached values; this flag only speaks of the state.
  bool resumes_returned_state() const { return resumes_returned_state_; }
  /// For a scheme that solves its step by Newton's method: the StepResult of `report`, its updates and Jacobians
  /// booked in stats_ (the scheme books its own right-hand sides); not converged: kRetrySmallerStep with the
  /// report's cause and the message "<name()>: <report's message>".
  StepResult NewtonStepResult(const NewtonReport& report);
  StepStatistics stats_;

 private:
  virtual StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) = 0;
  StepResult CallDoStep(const MechanicalSystem& system, MechanicalState& state, double h);  // restores on throw
  template <bool kBlocks>
  StepResult StepWith(const MechanicalSystem& system, MechanicalState& state, double h);  // Step's body
  MechanicalState step_start_;
  bool keeps_returned_state_ = false;
  bool returned_state_kept_ = false;        ///< step_start_ holds the state the last accepted Step() returned
  const MechanicalSystem* returned_for_ = nullptr;  ///< the system of that step
  bool resumes_returned_state_ = false;
};

}  // namespace impactlab
