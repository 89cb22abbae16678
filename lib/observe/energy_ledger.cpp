#include "observe/energy_ledger.h"

#include <algorithm>
#include <cmath>

namespace impactlab {

void EnergyLedger::OnStart(const MechanicalSystem& system, const MechanicalState& state) {
  last_terms_ = system.EnergyBooks(state);
  e0_ = last_terms_.Energy();
  books0_ = last_terms_.Books();
  scale_ = std::abs(e0_) > 0.0 ? std::abs(e0_) : 1.0;
  last_d_ = state.dissipated;
  energy_error_max_ = balance_residual_max_ = residual_with_generated_max_ = min_dissipation_increment_ = 0.0;
  p0_ = system.LinearMomentum(state);
  l0_ = system.AngularMomentum(state);
  p_drift_.reset();
  l_drift_.reset();
  if (p0_) {
    p_drift_ = 0.0;
    // Relative to the momentum magnitude, or to the sum of |m v| when the total vanishes.
    p_scale_ = std::max({p0_->norm(), system.LinearMomentumScale(state).value_or(0.0), 1e-300});
  }
  if (l0_) {
    l_drift_ = 0.0;
    // Relative to |L0|, or to the model's Σ m |x − x_G| |v| when L0 may vanish.
    l_scale_ = std::max({l0_->norm(), system.AngularMomentumScale(state).value_or(0.0), 1e-300});
  }
}

void EnergyLedger::OnStep(const MechanicalSystem& system, const MechanicalState& state) {
  last_terms_ = system.EnergyBooks(state);
  const double e = last_terms_.Energy(), books = last_terms_.Books();
  energy_error_max_ = std::max(energy_error_max_, std::abs(e - e0_) / scale_);
  balance_residual_max_ = std::max(balance_residual_max_, std::abs(books - books0_) / scale_);
  residual_with_generated_max_ =
      std::max(residual_with_generated_max_, std::abs(books + last_terms_.generated_work - books0_) / scale_);
  min_dissipation_increment_ = std::min(min_dissipation_increment_, state.dissipated - last_d_);
  last_d_ = state.dissipated;
  if (p0_) {
    if (auto p = system.LinearMomentum(state)) p_drift_ = std::max(*p_drift_, (*p - *p0_).norm() / p_scale_);
  }
  if (l0_) {
    if (auto l = system.AngularMomentum(state)) l_drift_ = std::max(*l_drift_, (*l - *l0_).norm() / l_scale_);
  }
}

std::optional<double> EnergyLedger::momentum_drift_max() const {
  if (!p_drift_ && !l_drift_) return std::nullopt;
  return std::max(p_drift_.value_or(0.0), l_drift_.value_or(0.0));
}

}  // namespace impactlab
