// Order audit: every integrator of a registry measured against its declared traits() — never trusting them
// [docs/theory.md §12.9; Hairer, Nørsett & Wanner 1993, §II.3 (order), Shampine 1994 §6 (tolerance
// proportionality)].
//
//   fixed-step schemes   global error at fixed T for h = h₀/2ᵏ, least-squares slope of log error vs log h over
//                        the levels with 1e-11 < error < 1e-2 (asymptotic, above round-off; ≥ 3 levels):
//                        smooth   harmonic oscillator (models/harmonic_oscillator.h) to T = 7 s (not a
//                                 whole number of periods, where first-order errors can cancel), error
//                                 hypot(q − q_exact, (v − v_exact)/ω): expected = declared order r;
//                        contact  undamped Hertz contact oscillator m = k = v₀ = 1 against Feng's exact solution
//                                 (validation/convergence), max trajectory error over the contact: expected
//                                 min(r, p + 1) = min(r, 2.5), because the (p+1)-th derivative of kδᵖ is
//                                 singular at δ = 0 and no fixed-step scheme locates onset/exit inside a step
//                                 (docs/exact-solution.md §5).
//                        pass iff |measured − expected| ≤ kOrderTolerance on both problems.
//   adaptive schemes     (traits().adaptive) the step is chosen by the tolerance, so "order vs dt" is
//                        meaningless: tolerance proportionality instead — global error for rtol = 1e-5 … 1e-9
//                        (atol = 1e-3 rtol), slope of log error vs log rtol inside [kToleranceSlopeMin,
//                        kToleranceSlopeMax] on both problems.
//   exact schemes        (traits().exact) no truncation error: contact trajectory error ≤ kExactErrorMax at a
//                        coarse step (t_c/16).
// A problem the scheme refuses (InvalidParameter, e.g. EFDA needs planar bodies) is "not applicable" and
// named; a scheme that refuses both problems is reported as not audited.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "registry/registries.h"

namespace impactlab {

inline constexpr double kOrderTolerance = 0.2;
inline constexpr double kToleranceSlopeMin = 0.6, kToleranceSlopeMax = 1.3;
inline constexpr double kExactErrorMax = 1e-9;
inline constexpr double kAuditContactExponent = 1.5;  ///< Hertz

enum class AuditKind { kFixedStep, kAdaptive, kExact };

/// One measurement on one problem.
struct AuditMeasure {
  bool applicable = true;
  std::string not_applicable_reason;    ///< the InvalidParameter message when not applicable
  std::optional<double> measured;       ///< slope (order or tolerance slope) or exact error
  double expected = 0.0;                ///< expected order (fixed step), 1 (adaptive) or 0 (exact)
  std::vector<double> steps, errors;    ///< h (or rtol) and the global errors, coarsest first
  bool pass = false;
};

struct OrderAuditRow {
  std::string integrator;
  AuditKind kind = AuditKind::kFixedStep;
  int declared_order = 0;
  AuditMeasure smooth, contact;
  bool audited() const { return smooth.applicable || contact.applicable; }
  /// Every applicable measure passes, and at least one applies.
  bool pass() const;
};

/// Audits one integrator, made by `make` (the registry factory).
OrderAuditRow AuditIntegrator(const std::string& name, const IntegratorFactory& make);
/// Audits every integrator of `registry`, sorted by name.
std::vector<OrderAuditRow> AuditOrders(const Registry<IntegratorFactory>& registry);

/// "fixed step", "adaptive", "exact".
std::string ToString(AuditKind kind);

}  // namespace impactlab
