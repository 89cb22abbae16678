#include "integrators/odeint_runge_kutta.h"

#include <boost/numeric/odeint.hpp>

#include "core/checks.h"
#include "integrators/first_order_form.h"

namespace impactlab {

namespace odeint = boost::numeric::odeint;
using OdeState = std::vector<double>;

void OdeintRungeKuttaOptions::Validate() const {
  RequirePositive("abs_tol", abs_tol);
  RequirePositive("rel_tol", rel_tol);
}

struct OdeintRungeKutta::Workspace {
  OdeState y;
  MechanicalState scratch;
  odeint::runge_kutta4<OdeState> rk4;
};

OdeintRungeKutta::OdeintRungeKutta(OdeintMethod method, Options options)
    : method_(method), options_(options), work_(std::make_unique<Workspace>()) {
  options_.Validate();
}
OdeintRungeKutta::~OdeintRungeKutta() = default;

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
    form.Rhs(system, x.data(), t, dxdt.data(), scratch);
  };
  const double t0 = state.t;
  StepResult result;
  try {
    switch (method_) {
      case OdeintMethod::kRk4: {
        work_->rk4.do_step(rhs, y, t0, h);
        ++stats_.internal_steps;
        break;
      }
      case OdeintMethod::kDopri5: {
        auto stepper = odeint::make_controlled<odeint::runge_kutta_dopri5<OdeState>>(options_.abs_tol,
                                                                                      options_.rel_tol);
        stats_.internal_steps += static_cast<long>(odeint::integrate_adaptive(stepper, rhs, y, t0, t0 + h, h));
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
    result.message = e.what();
  }
  stats_.rhs_evaluations += evaluations;
  form.Unpack(y.data(), t0 + h, state);
  system.NormalizeCoordinates(state);
  system.UpdateHistory(before, state);
  return result;
}

}  // namespace impactlab
