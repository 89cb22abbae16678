// EllipsesMulti: N ≥ 2 rigid ellipses on a jittered square lattice with pseudo-random (seeded, mt19937_64)
// orientations, velocities and spins, colliding with penalty contact and Coulomb friction. Without walls
// (default) the system is isolated: total linear and angular momentum are invariants (the EFDA check of
// Seed003 §4.1–4.2). With walls = true a box of side `box` encloses it (energy check only).
// Keys: n (20), seed (1), a (0.05), b (0.03), m (1), spacing (0.11 m), speed (1 m/s), spin (5 rad/s),
// walls (false), box (side; default lattice extent + 0.2 m), gravity (0), K_N, K_T, xi_N, xi_T, mu (0.3).
// The lattice centre drifts with the mean velocity; the lattice is compressed by the velocities towards
// its centre so that collisions happen within ~0.1 s.
#pragma once

#include "core/parameter_set.h"
#include "models/planar_ellipses.h"

namespace impactlab {

PlanarEllipsesConfig MakeEllipsesMultiConfig(const ParameterSet& p);

}  // namespace impactlab
