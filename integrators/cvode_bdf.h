// CvodeBdf: SUNDIALS CVODE, variable-order (1–5) BDF with Newton iteration and a dense direct linear solver
// (difference-quotient Jacobian), on the first-order form y = [q, v, z, D] [Hindmarsh et al. 2005, ACM TOMS
// 31:363-396]. Root finding on every contact overlap δ_i(y) locates contact start and end (reported as
// LocatedEvent), so restitution is measured at the tolerance of the solve, not of the output step.
// This is the reference solver for problems without a closed form; run it at tight tolerance.
//
// Step(h) integrates to t + h in CV_NORMAL mode (CVODE chooses its internal steps); consecutive calls
// continue the same CVODE history unless the state was modified externally (then it is re-initialized).
#pragma once

#include <memory>

#include "integrators/integrator.h"

namespace impactlab {

struct CvodeBdfOptions {
  double rel_tol = 1e-10;
  double abs_tol = 1e-14;
  int max_order = 5;
  long max_internal_steps = 10'000'000;
  void Validate() const;
};

class CvodeBdf final : public Integrator {
 public:
  using Options = CvodeBdfOptions;
  explicit CvodeBdf(Options options = {});
  ~CvodeBdf() override;
  std::string name() const override { return "cvode_bdf"; }
  IntegratorTraits traits() const override;
  void Reset() override;

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  struct Impl;
  Options options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace impactlab
