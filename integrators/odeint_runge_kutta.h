// Runge–Kutta baselines from Boost.Odeint, wrapped (not rewritten) behind the Integrator interface, on the
// first-order form y = [q, v, z, D] (integrators/first_order_form.h):
//
//   rk4     classical 4th-order Runge–Kutta, fixed step          odeint::runge_kutta4
//   dopri5  Dormand–Prince 5(4), error-controlled sub-steps       odeint::runge_kutta_dopri5 (controlled, FSAL),
//           with dense output: Interpolate(t) inside the last outer step uses DOPRI's 4th-order continuous
//           extension (runge_kutta_dopri5::calc_state) of the internal step that contains t
//   rkf78   Runge–Kutta–Fehlberg 7(8), error-controlled sub-steps odeint::runge_kutta_fehlberg78 (controlled);
//           odeint propagates the 8th-order solution (measured slope 7.9, tests/integrators/convergence_order_test.cpp)
//
// The adaptive ones integrate each outer step [t, t+h] at (abs_tol, rel_tol) and report their internal steps
// (rkf78 with integrate_adaptive; dopri5 by hand, to keep every internal step for dense output, with the same
// guard: odeint's failed_step_checker, at most 500 rejections in a row, any number in all); their declared
// order is that of the propagated solution (5 and 8).
// References: Hairer, Nørsett & Wanner, Solving ODEs I (1993); Dormand & Prince 1980; Fehlberg 1968.
#pragma once

#include <memory>

#include "integrators/integrator.h"

namespace impactlab {

enum class OdeintMethod { kRk4, kDopri5, kRkf78 };

struct OdeintRungeKuttaOptions {
  double abs_tol = 1e-12;
  double rel_tol = 1e-10;
  void Validate() const;
};

class OdeintRungeKutta final : public Integrator {
 public:
  using Options = OdeintRungeKuttaOptions;
  explicit OdeintRungeKutta(OdeintMethod method, Options options = {});
  ~OdeintRungeKutta() override;
  std::string name() const override;
  IntegratorTraits traits() const override;
  std::optional<MechanicalState> Interpolate(const MechanicalSystem& system, double t) const override;
  /// Forgets DOPRI5's last internal step size and dense output, so that a run does not depend on the one before.
  void Reset() override;

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  struct Workspace;  // odeint steppers and buffers, kept across steps (no per-step allocation)
  OdeintMethod method_;
  Options options_;
  std::unique_ptr<Workspace> work_;
};

}  // namespace impactlab
