// MechanicalState: the value type every integrator advances.
//   t  [s]     time
//   q          generalized coordinates (m, rad, or unit-quaternion components for 3D orientation)
//   v          generalized velocities (m/s, rad/s); q̇ = N(q) v, with N = I unless the system says otherwise
//   z          internal (history) variables of contact laws, e.g. the stored tangential spring of a
//              Mindlin law. Keeping them in the state (never in the law) makes rollback of a rejected
//              step exact: the integrator restores the whole value.
//   dissipated [J] cumulative work removed by non-conservative forces, D(t) = ∫ P_diss dt, advanced by
//              each integrator consistently with its own scheme, so the balance residual
//              E(t) + D(t) − E(0) measures how well that scheme keeps the energy books.
#pragma once

#include <Eigen/Core>
#include <cmath>

namespace impactlab {

struct MechanicalState {
  double t = 0.0;
  Eigen::VectorXd q;
  Eigen::VectorXd v;
  Eigen::VectorXd z;
  double dissipated = 0.0;

  bool IsFinite() const {
    return std::isfinite(t) && std::isfinite(dissipated) && q.allFinite() && v.allFinite() && z.allFinite();
  }
};

}  // namespace impactlab
