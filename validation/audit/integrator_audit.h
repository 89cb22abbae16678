// Integrator audit: the contract every registered integrator must keep, and its measured order of accuracy
// — the same checks the test-suite runs on the built-in schemes, callable on a user-registered one
// (registry/extension.h) by name.
//
// Contract (CheckIntegratorContract), on a free particle q(t) = q₀ + v₀t in 2-D (m = 1.5 kg):
//   name() equals the registered name; a reference is declared; h ∈ {0, −1e-3, NaN} → InvalidParameter with
//   the state untouched; 8 steps of h = 0.125 s are accepted, end at t = 1 s to 1e-15, reproduce q and v to
//   1e-12 relative (every consistent scheme integrates a free particle exactly) and count 8 steps.
// Order (AuditOrder), on the undamped harmonic oscillator m q̈ = −k q (m = 2 kg, k = 8 N/m, ω = 2 rad/s,
// q₀ = 0.3 m, v₀ = 0.7 m/s) over two periods T = 2π s [Hairer, Lubich & Wanner 2006, §II.1]:
//   global error e(h) = √((q_N − q(T))² + ((v_N − v(T))/ω)²) for h = T/(n₀·2^i), i = 0 … levels−1, and the
//   observed order = least-squares slope of log e against log h; it passes when |observed − declared| ≤ 0.15
//   and the finest error is above round-off (1e-13), so the slope measured truncation, not noise.
// Adaptive schemes are audited with the options the caller passes (e.g. loose tolerances so that one
// internal step is taken per outer step; tests/integrators/convergence_order_test.cpp does the same).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/parameter_set.h"

namespace impactlab {

struct IntegratorContractReport {
  std::string integrator;
  /// False when the scheme refuses the free particle (it needs model structure, e.g. EFDA): the stepping
  /// checks are then skipped, and the refusal must be an InvalidParameter naming the integrator.
  bool supports_free_particle = true;
  std::vector<std::string> failures;  ///< one line per broken clause; empty: the contract holds
  bool ok() const { return failures.empty(); }
};

struct OrderAuditReport {
  std::string integrator;
  int declared_order = 0;
  std::vector<double> dt;     ///< [s]
  std::vector<double> error;  ///< global error at T (see header comment) [m]
  std::optional<double> observed_order;
  bool passes = false;  ///< |observed − declared| ≤ 0.15 and finest error > 1e-13
};

/// Runs the contract on the registered integrator `name` built from `options`.
IntegratorContractReport CheckIntegratorContract(const std::string& name, const ParameterSet& options = {});

/// Measures the order of the registered integrator `name`; n0 ≥ 4 steps on the coarsest level, levels ≥ 3.
OrderAuditReport AuditOrder(const std::string& name, const ParameterSet& options = {}, int n0 = 64, int levels = 4);

}  // namespace impactlab
