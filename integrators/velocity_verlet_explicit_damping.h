// VelocityVerletExplicitDamping: velocity Verlet as the DEM codes run it — one force evaluation per step, the
// dampers fed the half-step velocity [Verlet 1967; Swope et al. 1982; LAMMPS `fix nve/sphere` with `pair_style
// granular` (Thompson et al. 2022, Comput. Phys. Commun. 271, 108171); Cundall & Strack 1979].
//
//   v_{n+½} = v_n + h/2 a_n
//   q_{n+1} = q_n + h N(q_n) v_{n+½}                 (= q_n + h v_n + h²/2 a_n when q̇ = v)
//   a_{n+1} = a(q_{n+1}, v_{n+½})                    velocity-dependent forces (dampers) EXPLICIT: they see the
//                                                    half-step velocity, as in LAMMPS, where the pair forces are
//                                                    computed between the two half kicks
//   v_{n+1} = v_{n+½} + h/2 a_{n+1}
//   D_{n+1} = D_n + h/2 (P_n + P_{n+1})             dissipated work by the trapezoidal rule, P at (q, v) of the
//                                                    step ends (as velocity_verlet books it)
// and a_{n+1} is reused as a_n of the next step (first same as last). With no velocity-dependent force this is
// `velocity_verlet` exactly (bit for bit: tests/integrators/velocity_verlet_explicit_damping_test.cpp).
//
// Order: 2 for conservative forces. The damping force uses v_{n+½} = v_{n+1} − h/2 a_{n+1}, an O(h) lag, so a
// dissipative force makes the scheme FIRST order (measured on the damped linear oscillator against its closed
// form in the test; docs/performance.md "Sphere assembly"). `velocity_verlet` removes the lag by iterating the
// end velocity to a fixed point (several force evaluations per step); this scheme is the like-for-like cost peer
// of LAMMPS in `impactlab bench --only assembly`.
#pragma once

#include "integrators/integrator.h"

namespace impactlab {

class VelocityVerletExplicitDamping final : public Integrator {
 public:
  std::string name() const override { return "velocity_verlet_explicit_damping"; }
  IntegratorTraits traits() const override;
  void Reset() override { cache_valid_ = false; }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  bool cache_valid_ = false;
  MechanicalState cached_state_;  ///< the state the last step returned (its a_{n+1} and P_{n+1} are cached)
  double cached_power_ = 0.0;
  // Work vectors (members so that a step allocates nothing once sizes are known).
  Eigen::VectorXd a0_, a1_, q_dot_;
};

}  // namespace impactlab
