// Errors of an integrator against Feng's exact solution, and the observed order of convergence
// [docs/theory.md §5, §12.3, §12.9; docs/exact-solution.md].
//
// For a system exposing PowerLawOscillatorStructure that starts in free flight approaching the wall
// (δ(0) ≤ 0, δ̇(0) = v₀ > 0), the reference is FengPowerLawSolution(m, k, p, α, v₀) shifted by the entry time
// t_entry = −δ(0)/v₀. For one run with output step dt the measures are
//   restitution   |e_num − e|                                    (located first-contact events)
//   delta_max     |δ_max,num − δ_max| / δ_max
//   t_contact     |t_c,num − t_c| / t_c
//   trajectory    max over accepted steps t_n ∈ [t_entry, t_entry + t_c] of |δ_num(t_n) − δ(t_n)| / δ_max
// A run that never separates reports the separation measures as NaN.
//
// Observed order: least-squares slope of log(error) against log(dt) over the asymptotic range, taken as the
// finest ⌈n/2⌉ + 1 (at least 3) levels whose error is above the round-off floor kConvergenceErrorFloor.
#pragma once

#include <optional>
#include <vector>

#include "exact/feng_power_law_solution.h"
#include "integrators/integrator.h"
#include "system/mechanical_system.h"

namespace impactlab {

/// Errors below this are round-off (the exact solver itself agrees with itself to ~1e-13).
inline constexpr double kConvergenceErrorFloor = 1e-12;

struct ExactReference {
  FengPowerLawSolution solution;
  double t_entry = 0.0;  ///< [s]
  double overlap_per_coordinate = -1.0;
};

/// The exact reference of `system`; throws InvalidParameter naming the reason when there is none.
ExactReference MakeExactReference(const MechanicalSystem& system);

struct ExactErrors {
  double dt = 0.0;
  bool rebounded = false;
  double restitution = 0.0, delta_max = 0.0, t_contact = 0.0, trajectory = 0.0;
  long steps = 0;
  long rhs_evaluations = 0;
  double wall_time_s = 0.0;
};

/// One run of `integrator` with output step dt over the first contact (stops dt after separation).
ExactErrors MeasureAgainstExact(const MechanicalSystem& system, Integrator& integrator, const ExactReference& ref,
                                double dt);

/// Least-squares observed order (see header comment); nullopt with fewer than 2 usable levels.
std::optional<double> ObservedOrder(const std::vector<double>& dt, const std::vector<double>& error);

}  // namespace impactlab
