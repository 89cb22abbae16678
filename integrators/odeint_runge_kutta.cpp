#include "integrators/odeint_runge_kutta.h"

#include <boost/numeric/odeint.hpp>
#include <cstdio>
#include <limits>
#include <string>

#include "core/checks.h"
#include "integrators/first_order_form.h"

namespace impactlab {

namespace odeint = boost::numeric::odeint;
using OdeState = std::vector<double>;

namespace {
std::string Printf(const char* format, double a, double b) {
  char buf[128];
  std::snprintf(buf, sizeof buf, format, a, b);
  return buf;
}
}  // namespace

void OdeintRungeKuttaOptions::Validate() const {
  RequirePositive("abs_tol", abs_tol);
  RequirePositive("rel_tol", rel_tol);
}

using Dopri5 = odeint::runge_kutta_dopri5<OdeState>;

/// One accepted internal dopri5 step, enough for its continuous extension.
struct Dopri5Segment {
  Dopri5 stepper;  // holds the stages of this step
  OdeState x_old, dxdt_old, x_new, dxdt_new;
  double t_old = 0.0, t_new = 0.0;
};

struct OdeintRungeKutta::Workspace {
  OdeState y;
  MechanicalState scratch;
  /// Boost.Odeint's steppers size their stage buffers at the first step only (initially_resizer): it is
  /// replaced by a fresh one whenever the system's size changes.
  odeint::runge_kutta4<OdeState> rk4;
  std::size_t rk4_size = 0;  // 0: not sized yet (y has at least one entry)
  std::vector<Dopri5Segment> segments;  // internal steps of the last outer step (dense output)
  double dt_guess = 0.0;                // last accepted internal step size
  MechanicalState shape;                // sizes for unpacking interpolated states
  double dissipated_shape = 0.0;
};

OdeintRungeKutta::OdeintRungeKutta(OdeintMethod method, Options options)
    : method_(method), options_(options), work_(std::make_unique<Workspace>()) {
  options_.Validate();
}
OdeintRungeKutta::~OdeintRungeKutta() = default;

void OdeintRungeKutta::Reset() {
  work_->segments.clear();
  work_->dt_guess = 0.0;
}

std::string OdeintRungeKutta::name() const {
  switch (method_) {
    case OdeintMethod::kRk4: return "rk4";
    case OdeintMethod::kDopri5: return "dopri5";
    case OdeintMethod::kRkf78: return "rkf78";
  }
  return "?";
}

IntegratorTraits OdeintRungeKutta::traits() const {
  IntegratorTraits t;
  t.library = "Boost.Odeint";
  t.damping_treatment = "exact right-hand side at every stage";
  switch (method_) {
    case OdeintMethod::kRk4:
      t.order = 4;
      t.reference = "Kutta 1901; Hairer, Norsett & Wanner 1993, Table II.1.2";
      break;
    case OdeintMethod::kDopri5:
      t.order = 5;
      t.adaptive = true;
      t.reference = "Dormand & Prince 1980, J. Comput. Appl. Math. 6:19-26";
      break;
    case OdeintMethod::kRkf78:
      t.order = 8;  // odeint's fehlberg78 advances with the 8th-order weights (error_order 7)
      t.adaptive = true;
      t.reference = "Fehlberg 1968, NASA TR R-287";
      break;
  }
  return t;
}

StepResult OdeintRungeKutta::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  const FirstOrderForm form(state);
  OdeState& y = work_->y;
  y.resize(form.size());
  form.Pack(state, y.data());
  const MechanicalState& before = step_start();
  MechanicalState& scratch = work_->scratch;
  if (scratch.q.size() != state.q.size() || scratch.v.size() != state.v.size() || scratch.z.size() != state.z.size())
    scratch = state;
  long evaluations = 0;
  auto rhs = [&](const OdeState& x, OdeState& dxdt, double t) {
    ++evaluations;
    form.Rhs(system, x.data(), t, dxdt.data(), scratch, &before);
  };
  const double t0 = state.t;
  StepResult result;
  try {
    switch (method_) {
      case OdeintMethod::kRk4: {
        if (work_->rk4_size != y.size()) {
          work_->rk4 = odeint::runge_kutta4<OdeState>();
          work_->rk4_size = y.size();
        }
        work_->rk4.do_step(rhs, y, t0, h);
        ++stats_.internal_steps;
        break;
      }
      case OdeintMethod::kDopri5: {
        // Drive the FSAL controlled stepper by hand so that every accepted internal step is kept for dense
        // output; the last internal step is clipped to land exactly on t0 + h.
        auto controlled = odeint::make_controlled<Dopri5>(options_.abs_tol, options_.rel_tol);
        work_->segments.clear();
        work_->shape = state;
        OdeState dxdt(y.size());
        rhs(y, dxdt, t0);
        double t = t0, dt = work_->dt_guess > 0.0 ? std::min(work_->dt_guess, h) : h;
        const double t1 = t0 + h;
        // Two guards. odeint's own of integrate_adaptive: at most 500 consecutive rejections (reset by every
        // accepted internal step), then step_adjustment_error; a step that crosses many kinks of the force (contact
        // onset, stick/slip switches) is rejected a few times at each and may total more. And the step size
        // test of the code DOPRI5 (Hairer, Nørsett & Wanner 1993, appendix): 0.1 |dt| ≤ ε |t| is too small,
        // since t + dt no longer advances t (accepted steps there would reset the first guard forever).
        odeint::failed_step_checker consecutive_failures;
        while (t1 - t > 1e-14 * std::max(std::abs(t1), h)) {
          if (dt < 1e-300 || 0.1 * dt <= std::numeric_limits<double>::epsilon() * std::abs(t))
            throw std::runtime_error(Printf("step size underflow (internal step %.3g s at t = %.17g s)", dt, t));
          dt = std::min(dt, t1 - t);
          Dopri5Segment seg;
          seg.x_old = y;
          seg.dxdt_old = dxdt;
          seg.t_old = t;
          const double dt_tried = dt;
          if (controlled.try_step(rhs, y, dxdt, t, dt) == odeint::success) {
            seg.stepper = controlled.stepper();
            seg.x_new = y;
            seg.dxdt_new = dxdt;
            seg.t_new = t;
            work_->segments.push_back(std::move(seg));
            ++stats_.internal_steps;
            consecutive_failures.reset();
            work_->dt_guess = dt;
            if (t1 - t < 1e-14 * std::max(std::abs(t1), h)) break;
          } else {
            ++stats_.rejected_steps;
            consecutive_failures();  // throws odeint::step_adjustment_error after 500 in a row
            if (dt >= dt_tried) throw std::runtime_error("rejected trial step not shortened");
          }
        }
        break;
      }
      case OdeintMethod::kRkf78: {
        auto stepper = odeint::make_controlled<odeint::runge_kutta_fehlberg78<OdeState>>(options_.abs_tol,
                                                                                         options_.rel_tol);
        stats_.internal_steps += static_cast<long>(odeint::integrate_adaptive(stepper, rhs, y, t0, t0 + h, h));
        break;
      }
    }
  } catch (const std::exception& e) {  // odeint throws when the step size underflows
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = StepFailureCause::kStepSizeUnderflow;
    result.message = name() + ": " + e.what();
  }
  stats_.rhs_evaluations += evaluations;
  form.Unpack(y.data(), t0 + h, state);
  system.NormalizeCoordinates(state);
  system.UpdateHistory(before, state);
  return result;
}

std::optional<MechanicalState> OdeintRungeKutta::Interpolate(const MechanicalSystem& system, double t) const {
  if (method_ != OdeintMethod::kDopri5 || work_->segments.empty()) return std::nullopt;
  for (const auto& seg : work_->segments) {
    if (t < seg.t_old || t > seg.t_new) continue;
    OdeState x(seg.x_old.size());
    if (t == seg.t_new) x = seg.x_new;
    else seg.stepper.calc_state(t, x, seg.x_old, seg.dxdt_old, seg.t_old, seg.x_new, seg.dxdt_new, seg.t_new);
    const FirstOrderForm form(work_->shape);
    MechanicalState s = work_->shape;
    form.Unpack(x.data(), t, s);
    if (s.z.size() > 0) system.UpdateHistory(step_start(), s);  // the history the stages saw (first_order_form.h)
    return s;
  }
  return std::nullopt;
}

}  // namespace impactlab
