#include "integrator.h"

#include <cmath>

#include "core/errors.h"

namespace impactlab {

StepResult Integrator::CallDoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  try {
    return DoStep(system, state, h);
  } catch (const InvalidParameter&) {
    state.AssignFrom(step_start_);
    throw;
  }
}

StepResult Integrator::Step(const MechanicalSystem& system, MechanicalState& state, double h) {
  if (!(std::isfinite(h) && h > 0.0)) throw InvalidParameter("dt", h, "> 0 and finite");
  // Long states (10⁴ spheres and more) are compared, copied and checked in blocks on the contact threads.
  const bool blocks = state.v.size() >= kParallelArrayLength && ContactThreads() > 1;
  if (keeps_returned_state_) {
    // The rollback copy is already there when the state is the returned one (bits of t, q, v, z; `dissipated` is
    // assigned either way, so the copy is exact).
    resumes_returned_state_ = returned_state_kept_ && returned_for_ == &system &&
                              (blocks ? step_start_.SameBitsInBlocks(state) : step_start_.SameBits(state));
    returned_state_kept_ = false;
    if (resumes_returned_state_)
      step_start_.dissipated = state.dissipated;
    else if (blocks)
      step_start_.AssignFromInBlocks(state);
    else
      step_start_.AssignFrom(state);
  } else if (blocks) {
    step_start_.AssignFromInBlocks(state);
  } else {
    step_start_.AssignFrom(state);  // reuses storage when sizes match
  }
  const MechanicalState& saved = step_start_;
  const double t_target = saved.t + h;
  StepResult result = CallDoStep(system, state, h);
  if (result.status == StepStatus::kAccepted && !(blocks ? state.IsFiniteInBlocks() : state.IsFinite())) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = StepFailureCause::kNonFiniteState;
    result.message = "non-finite state after step (t = " + InvalidParameter::FormatNumber(saved.t) + ", h = " +
                     InvalidParameter::FormatNumber(h) + ")";
  }
  if (result.status != StepStatus::kAccepted) {
    state.AssignFrom(saved);
    ++stats_.rejected_steps;
    return result;
  }
  state.t = t_target;
  ++stats_.steps;
  if (keeps_returned_state_) {
    if (blocks)
      step_start_.AssignFromInBlocks(state);
    else
      step_start_.AssignFrom(state);
    returned_state_kept_ = true;
    returned_for_ = &system;
  }
  return result;
}

}  // namespace impactlab
