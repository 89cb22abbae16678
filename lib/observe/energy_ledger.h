// EnergyLedger: kinetic T, potential V, cumulative dissipated work D at every step, and the two metrics
//   energy error        max_t |E(t) − E(0)| / E(0)             (meaningful for conservative runs)
//   balance residual    max_t |E(t) + D(t) − E(0)| / E(0)      (any run; a law or scheme that creates
//                                                               energy shows up here, never clipped)
// and, for isolated systems, the max relative drift of linear and angular momentum.
#pragma once

#include <Eigen/Core>
#include <optional>

#include "observe/step_observer.h"

namespace impactlab {

class EnergyLedger final : public StepObserver {
 public:
  void OnStart(const MechanicalSystem& system, const MechanicalState& state) override;
  void OnStep(const MechanicalSystem& system, const MechanicalState& state) override;

  double initial_energy() const { return e0_; }
  double energy_error_max() const { return energy_error_max_; }
  double balance_residual_max() const { return balance_residual_max_; }
  double min_dissipated_increment() const { return min_dissipation_increment_; }
  /// nullopt when the system does not define the momentum.
  std::optional<double> linear_momentum_drift_max() const { return p_drift_; }
  std::optional<double> angular_momentum_drift_max() const { return l_drift_; }
  /// max(linear, angular) where defined.
  std::optional<double> momentum_drift_max() const;

 private:
  double e0_ = 0.0, scale_ = 1.0, last_d_ = 0.0;
  double energy_error_max_ = 0.0, balance_residual_max_ = 0.0, min_dissipation_increment_ = 0.0;
  std::optional<Eigen::Vector3d> p0_, l0_;
  double p_scale_ = 1.0, l_scale_ = 1.0;
  std::optional<double> p_drift_, l_drift_;
};

}  // namespace impactlab
