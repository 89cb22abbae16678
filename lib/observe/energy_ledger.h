// EnergyLedger: the typed energy books of every model (MechanicalSystem::EnergyBooks, state/energy_terms.h) at every
// step, and the metrics
//   energy error              max_t |E(t) − E(0)| / E(0)                     (meaningful for conservative runs)
//   balance residual          max_t |books(t) − books(0)| / E(0),  books = E + D + W_f − W_g − W_ext
//                             (the scheme's books: round-off for the energy-consistent schemes)
//   residual with generated   max_t |books(t) + W_g(t) − books(0)| / E(0)   (also counts the energy a law creates
//                             by itself, W_g, e.g. the Mindlin integral laws; equal to the above when W_g = 0)
// and, for isolated systems, the max relative drift of linear and angular momentum. One observer for every model:
// no model keeps observer state in its history or overwrites these keys.
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
  double residual_with_generated_max() const { return residual_with_generated_max_; }
  /// The books of the last observed state.
  const EnergyTerms& last_terms() const { return last_terms_; }
  double min_dissipated_increment() const { return min_dissipation_increment_; }
  /// nullopt when the system does not define the momentum.
  std::optional<double> linear_momentum_drift_max() const { return p_drift_; }
  std::optional<double> angular_momentum_drift_max() const { return l_drift_; }
  /// max(linear, angular) where defined.
  std::optional<double> momentum_drift_max() const;

 private:
  double e0_ = 0.0, books0_ = 0.0, scale_ = 1.0, last_d_ = 0.0;
  double energy_error_max_ = 0.0, balance_residual_max_ = 0.0, residual_with_generated_max_ = 0.0,
         min_dissipation_increment_ = 0.0;
  EnergyTerms last_terms_;
  std::optional<Eigen::Vector3d> p0_, l0_;
  double p_scale_ = 1.0, l_scale_ = 1.0;
  std::optional<double> p_drift_, l_drift_;
};

}  // namespace impactlab
