// Cost of Feng's exact solution of the power-law damped contact oscillator vs a CVODE solve of the same
// contact, for `impactlab bench` [docs/exact-solution.md, docs/performance.md]:
//   exact_restitution_ns      construct the solution + e = exp(−πλ) (closed form, no quadrature)
//   exact_contact_time_ns     t_c by tanh–sinh quadrature
//   exact_trajectory_1000_ns  1000-sample exact trajectory δ(t), δ̇(t)
//   cvode_contact_ns          CVODE BDF, rtol 1e-10, root finding, restitution measured (10 output steps)
//   exact_vs_cvode_speedup    cvode_contact_ns / exact_restitution_ns
// Problem: Hertz p = 1.5, Tsuji damping e = 0.5, m = k = v₀ = 1.
#pragma once

#include <nlohmann/json.hpp>

#include "bench/timing.h"

namespace impactlab::bench {

nlohmann::json RunExactBenchmarks(const TimingOptions& options);

}  // namespace impactlab::bench
