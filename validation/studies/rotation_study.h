// 3-D rigid-body rotation (issue 15 item 4; docs/rotation.md): the energy–momentum scheme
// `lie_poisson_midpoint` (Austin, Krishnaprasad & Wang 1993) against explicit and ODE baselines.
//  (a) free asymmetric top near its intermediate axis (I = (1, 2, 3), Ω₀ = (0.02, 2.0, 0.02), docs/rotation.md §4),
//      h = 0.05 T with T = 4K/λ (Landau & Lifshitz 1976 §37): max |E − E₀|/E₀ and ‖L − L₀‖/‖L₀‖ vs the number of
//      steps for lie_poisson_midpoint (10⁵ steps), rk4 with quaternion renormalisation, dopri5 and cvode_bdf
//      (10⁴ steps, tolerances of docs/rotation.md §4) — figures drift_energy / drift_momentum, series CSVs;
//  (b) observed order of Ω(T) against the elliptic-function solution, 800 … 6400 steps per period;
//  (c) flip period from the zero crossings of the intermediate-axis component at T/2000 and T/20000;
//  (d) the spinning ellipsoid against the wall (ellipsoid_wall_3d, spin 4 rad/s about x, y, z): balance residual
//      of lie_poisson_midpoint, e_cn, e_E and the rebound spin of it and velocity_verlet / rk4 / dopri5;
//  (e) the in-plane case: ellipsoid_wall_3d reproduces planar ellipsoid_wall e_cn and e_E (dopri5, rtol 1e-13);
//  (f) (d) with gravity and friction, as validation/scenarios/ellipsoid_wall_3d.toml (g = 9.81 m/s², Cundall–Strack,
//      μ = 0.3): the balance E + D + W_f − E₀ of lie_poisson_midpoint closes with the friction work included.
// compute (typed results) → claims (a pure function of them) → render (tables, CSV, figure specs).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "report/study.h"

namespace impactlab {

/// (a) one integrator's running max drift at log-spaced step counts.
struct RotationDriftSeries {
  std::string integrator;
  int steps = 0;          ///< outer steps run
  bool completed = true;  ///< every step accepted
  long internal_steps = 0;     ///< sub-steps of the adaptive baselines
  long newton_iterations = 0;  ///< of the implicit scheme
  std::vector<int> n;                       ///< step counts of the samples
  std::vector<double> energy, momentum;     ///< max over steps 1..n of |E−E₀|/E₀, ‖L−L₀‖/‖L₀‖
  double energy_max() const { return energy.empty() ? 0.0 : energy.back(); }
  double momentum_max() const { return momentum.empty() ? 0.0 : momentum.back(); }
};

/// (d), (f) one ellipsoid–wall run.
struct RotationWallRun {
  std::string axis, integrator;
  bool friction = false;  ///< (f): g = 9.81, cundall_strack, μ = 0.3
  double e_cn = 0.0, e_E = 0.0, balance = 0.0;
  double friction_work = 0.0;  ///< W_f [J] (0 without friction)
  std::array<double, 3> omega_after{};  ///< world frame [rad/s]
};

struct RotationResults {
  double period = 0.0, step = 0.0;  ///< T = 4K/λ and h = 0.05 T (a)
  std::vector<RotationDriftSeries> drift;      ///< (a)
  std::vector<int> order_steps;                ///< (b) steps per period
  std::vector<double> order_errors;            ///< (b) ‖Ω_h(T) − Ω(T)‖∞
  std::vector<int> flip_steps;                 ///< (c) steps per period
  std::vector<double> flip_errors;             ///< (c) relative error of the measured flip period
  std::vector<RotationWallRun> wall;           ///< (d)
  std::vector<RotationWallRun> wall_friction;  ///< (f)
  double inplane_e_cn_3d = 0.0, inplane_e_cn_2d = 0.0, inplane_e_E_3d = 0.0, inplane_e_E_2d = 0.0;  ///< (e)
};

/// The runs (no output). Quick: the conserving scheme 10⁴ steps, the baselines 10³ steps in (a).
RotationResults ComputeRotation(bool quick);
/// The claims, a pure function of the results.
std::vector<Claim> RotationClaims(const RotationResults& r);

class RotationStudy final : public Study {
 public:
  std::string name() const override { return "rotation"; }
  std::string title() const override { return "3-D rigid-body rotation: conserving scheme vs baselines"; }
  std::string source() const override {
    return "Landau & Lifshitz 1976 §37; Austin, Krishnaprasad & Wang 1993; Gonzalez 1996; docs/rotation.md";
  }
  StudyResult Run(const StudyContext& context) const override;
};

}  // namespace impactlab
