#include "integrators/first_order_form.h"

namespace impactlab {

void FirstOrderForm::Pack(const MechanicalState& s, double* y) const {
  Eigen::Map<Eigen::VectorXd>(y, nq_) = s.q;
  Eigen::Map<Eigen::VectorXd>(y + nq_, nv_) = s.v;
  Eigen::Map<Eigen::VectorXd>(y + nq_ + nv_, nz_) = s.z;
  y[nq_ + nv_ + nz_] = s.dissipated;
}

void FirstOrderForm::Unpack(const double* y, double t, MechanicalState& s) const {
  s.t = t;
  s.q = Eigen::Map<const Eigen::VectorXd>(y, nq_);
  s.v = Eigen::Map<const Eigen::VectorXd>(y + nq_, nv_);
  s.z = Eigen::Map<const Eigen::VectorXd>(y + nq_ + nv_, nz_);
  s.dissipated = y[nq_ + nv_ + nz_];
}

void FirstOrderForm::Rhs(const MechanicalSystem& system, const double* y, double t, double* dydt,
                         MechanicalState& scratch, const MechanicalState* step_start) const {
  Unpack(y, t, scratch);
  if (step_start != nullptr && nz_ > 0) system.UpdateHistory(*step_start, scratch);
  Eigen::Map<Eigen::VectorXd> q_dot(dydt, nq_), v_dot(dydt + nq_, nv_), z_dot(dydt + nq_ + nv_, nz_);
  system.PositionRate(scratch, q_dot);
  system.Acceleration(scratch, v_dot);
  if (nz_ > 0) system.HistoryRate(scratch, z_dot);
  dydt[nq_ + nv_ + nz_] = system.DissipationPower(scratch);
}

}  // namespace impactlab
