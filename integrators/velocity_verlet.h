// VelocityVerlet: the explicit second-order scheme DEM codes use [Verlet 1967; Swope et al. 1982].
//
//   v_{n+½} = v_n + h/2 a_n
//   q_{n+1} = q_n + h N(q_n) v_{n+½}                 (= q_n + h v_n + h²/2 a_n when q̇ = v)
//   v_{n+1} = v_{n+½} + h/2 a(q_{n+1}, v_{n+1})      velocity-dependent forces (dampers) are evaluated
//                                                    IMPLICITLY at the end-of-step velocity, by fixed-point
//                                                    iteration to 1e-15 relative [docs/theory.md §12.3]; with
//                                                    no damping this is the plain scheme.
//   D_{n+1}  = D_n + h/2 (P_n + P_{n+1})             dissipated work by the trapezoidal rule
//
// Symplectic and second order for conservative systems with smooth forces; contact exit inside a step is
// not sub-stepped (the phase-dependent exit error of docs/theory.md §12.3 is present and measured).
//
// VerletDamping::kHalfStepVelocity, registered as `velocity_verlet_explicit_damping`, is the form the DEM codes run
// [LAMMPS `fix nve/sphere` with `pair_style granular`, Thompson et al. 2022, Comput. Phys. Commun. 271, 108171;
// Cundall & Strack 1979]: the dampers see the half-step velocity, one force evaluation per step,
//   a_{n+1} = a(q_{n+1}, v_{n+½}),  v_{n+1} = v_{n+½} + h/2 a_{n+1}
// and a_{n+1} is reused as the next a_n. Without velocity-dependent forces it is the plain scheme bit for bit; with
// dampers the lag v_{n+1} − v_{n+½} = h/2 a_{n+1} makes it FIRST order (measured against the damped oscillator's
// closed form in tests/integrators/velocity_verlet_explicit_damping_test.cpp). It is the like-for-like cost peer
// of LAMMPS in `impactlab bench --only assembly` (docs/performance.md).
#pragma once

#include "integrators/integrator.h"

namespace impactlab {

/// How velocity-dependent forces see the velocity (header comment).
enum class VerletDamping { kImplicitEndVelocity, kHalfStepVelocity };

class VelocityVerlet final : public Integrator {
 public:
  explicit VelocityVerlet(VerletDamping damping = VerletDamping::kImplicitEndVelocity) : damping_(damping) {
    KeepReturnedState();  // FSAL: a_n and P_n are the previous step's a_{n+1}, P_{n+1} when the state is unchanged
  }
  std::string name() const override {
    return damping_ == VerletDamping::kHalfStepVelocity ? "velocity_verlet_explicit_damping" : "velocity_verlet";
  }
  IntegratorTraits traits() const override;
  void Reset() override { cache_valid_ = false; }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override;
  template <bool kLongVectors>
  StepResult DoStepWith(const MechanicalSystem& system, MechanicalState& state, double h);  // DoStep's body
  VerletDamping damping_;
  bool cache_valid_ = false;    ///< a1_ and cached_power_ are a and P of the state this scheme's last step returned
  double cached_power_ = 0.0;
  // Work vectors (members so that a step allocates nothing once sizes are known).
  Eigen::VectorXd a0_, a1_, v_half_, q_dot_, v_new_;
};

}  // namespace impactlab
