// The peers of the stepper comparisons, shared by `impactlab bench` (peer_benchmarks.cpp) and the Google
// Benchmark program validation/benchmarks/stepper_benchmark.cpp. Each advances a one-degree-of-freedom
// system (q[0], v[0]; undamped, N = I) from its initial state by `steps` steps of `dt` and returns q[0]:
//   HandVerletLoop         velocity Verlet written inline with F = k δ^p, δ = −y, m = 1
//   HandVerletLoopSameRhs  the same loop calling MechanicalSystem::Acceleration
//   OdeintVelocityVerletLoop / OdeintRk4Loop   Boost.Odeint's steppers on MechanicalSystem::Acceleration
#pragma once

#include "system/mechanical_system.h"

namespace impactlab::bench {

double HandVerletLoop(double stiffness, double exponent, int steps, double dt);
double HandVerletLoopSameRhs(const MechanicalSystem& system, int steps, double dt);
double OdeintVelocityVerletLoop(const MechanicalSystem& system, int steps, double dt);
double OdeintRk4Loop(const MechanicalSystem& system, int steps, double dt);

}  // namespace impactlab::bench
