// FirstOrderForm: the packing of a MechanicalState into the first-order ODE y' = F(t, y) that library
// integrators (Boost.Odeint, SUNDIALS) advance:
//
//   y = [q, v, z, D],   y' = [N(q) v, a(t, q, v, z), ż, P_diss]
//
// D (the dissipated work) rides along as a quadrature, so the energy balance of ODE solvers is as accurate
// as their solution. The contact-law history update (UpdateHistory) is committed once per outer step; inside
// the step every stage sees the history the law would commit if the step ended at that stage,
// z(stage) = UpdateHistory(step start, stage), so the stage forces are a function of the stage state (a
// tangential spring loaded by the displacement since the step start) and not the frozen z_n of the start.
// Freezing z_n is an O(h) splitting that caps any Runge–Kutta scheme at order 1 on history laws
// (docs/convergence.md, "rk4 with history laws").
#pragma once

#include <vector>

#include "state/mechanical_state.h"
#include "system/mechanical_system.h"

namespace impactlab {

class FirstOrderForm {
 public:
  explicit FirstOrderForm(const MechanicalState& shape)
      : nq_(shape.q.size()), nv_(shape.v.size()), nz_(shape.z.size()) {}
  size_t size() const { return static_cast<size_t>(nq_ + nv_ + nz_ + 1); }

  void Pack(const MechanicalState& s, double* y) const;
  /// Unpacks into `s` (sizes must already match); sets s.t = t.
  void Unpack(const double* y, double t, MechanicalState& s) const;
  /// y' = F(t, y). `scratch` avoids allocations in the hot loop. With `step_start` (the last committed state)
  /// and history variables present, the stage history is UpdateHistory(*step_start, stage) (see above).
  void Rhs(const MechanicalSystem& system, const double* y, double t, double* dydt, MechanicalState& scratch,
           const MechanicalState* step_start = nullptr) const;

 private:
  Eigen::Index nq_, nv_, nz_;
};

}  // namespace impactlab
