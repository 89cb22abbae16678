// Same-run peer comparisons for `impactlab bench` (issue 9, docs/performance.md):
//   verlet_vs_hand_loop  framework VelocityVerlet through Integrator::Step (interface dispatch, no observers)
//                        vs a hand-written loop doing the same arithmetic inline (same Hertz force, same
//                        update order: the final states agree bitwise, checked and reported)
//   verlet_vs_odeint     the same Step loop vs boost::numeric::odeint::velocity_verlet on the same RHS
//                        (ContactOscillator::Acceleration)
//   rk4_vs_odeint        OdeintRungeKutta(kRk4) through Step vs odeint::runge_kutta4 on the same RHS
//   cvode_matched        CVODE BDF at the loosest rtol whose restitution error is ≤ velocity Verlet's at
//                        t_c/200 on a Tsuji-damped Hertz contact (error vs Feng's exact e), cost per contact
// Problem for the first three: undamped Hertz impact, m = k = v₀ = 1, 2000 steps of 2e-3 s through one
// contact (t_c = 3.218 s).
#pragma once

#include <nlohmann/json.hpp>

#include "bench/timing.h"

namespace impactlab::bench {

nlohmann::json RunPeerBenchmarks(const TimingOptions& options);

}  // namespace impactlab::bench
