#include "integrator.h"

#include <cmath>

#include "core/errors.h"
#include "integrators/newton_solver.h"

namespace impactlab {

StepResult Integrator::CallDoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  try {
    return DoStep(system, state, h);
  } catch (const InvalidParameter&) {
    state.AssignFrom(step_start_);
    throw;
  }
}

namespace {
// The state passes of Step, plain or, for long states, in blocks on the contact threads (mechanical_state.h).
template <bool kBlocks>
bool SameBitsAs(const MechanicalState& a, const MechanicalState& b) {
  if constexpr (kBlocks) return a.SameBitsInBlocks(b);
  return a.SameBits(b);
}
template <bool kBlocks>
void Assign(MechanicalState& to, const MechanicalState& from) {
  if constexpr (kBlocks)
    to.AssignFromInBlocks(from);
  else
    to.AssignFrom(from);  // reuses storage when sizes match
}
template <bool kBlocks>
bool Finite(const MechanicalState& s) {
  if constexpr (kBlocks) return s.IsFiniteInBlocks();
  return s.IsFinite();
}
}  // namespace

template <bool kBlocks>
[[gnu::always_inline]] inline StepResult Integrator::StepWith(const MechanicalSystem& system, MechanicalState& state, double h) {
  if (keeps_returned_state_) {
    // The rollback copy is already there when the state is the returned one (bits of t, q, v, z; `dissipated` is
    // assigned either way, so the copy is exact).
    resumes_returned_state_ =
        returned_state_kept_ && returned_for_ == &system && SameBitsAs<kBlocks>(step_start_, state);
    returned_state_kept_ = false;
    if (resumes_returned_state_)
      step_start_.dissipated = state.dissipated;
    else
      Assign<kBlocks>(step_start_, state);
  } else {
    Assign<kBlocks>(step_start_, state);
  }
  const MechanicalState& saved = step_start_;
  const double t_target = saved.t + h;
  StepResult result = CallDoStep(system, state, h);
  if (result.status == StepStatus::kAccepted && !Finite<kBlocks>(state)) {
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
    Assign<kBlocks>(step_start_, state);
    returned_state_kept_ = true;
    returned_for_ = &system;
  }
  return result;
}

StepResult Integrator::Step(const MechanicalSystem& system, MechanicalState& state, double h) {
  if (!(std::isfinite(h) && h > 0.0)) throw InvalidParameter("dt", h, "> 0 and finite");
  // Long states (10⁴ spheres and more) are compared, copied and checked in blocks on the contact threads; the
  // plain instantiation is the short states' step with nothing added.
  if (state.v.size() >= kParallelArrayLength && ContactThreads() > 1) [[unlikely]]
    return StepWith<true>(system, state, h);
  return StepWith<false>(system, state, h);
}

StepResult Integrator::NewtonStepResult(const NewtonReport& report) {
  stats_.newton_iterations += report.iterations;
  stats_.jacobian_evaluations += report.jacobian_evaluations;
  StepResult result;
  result.newton_iterations = report.iterations;
  result.residual_norm = report.residual_norm;
  if (!report.converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = report.cause;
    result.message = name() + ": " + report.message;  // name() builds a string: only on this path
  }
  return result;
}

}  // namespace impactlab
