#include "bench/peer_benchmarks.h"
#include "bench/peer_loops.h"

#include <chrono>
#include <cmath>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "core/errors.h"
#include "exact/feng_power_law_solution.h"
#include "integrators/cvode_bdf.h"
#include "integrators/odeint_runge_kutta.h"
#include "integrators/simulation.h"
#include "integrators/velocity_verlet.h"
#include "metrics/contact_metrics.h"
#include "models/contact_oscillator.h"

namespace impactlab::bench {
namespace {

constexpr int kSteps = 2000;
constexpr double kDt = 4.0 / kSteps;

std::shared_ptr<const ContactOscillator> UndampedHertz() {
  return std::make_shared<ContactOscillator>(
      ContactOscillatorParameters{}, DampedNormalLaw{std::make_shared<HertzLaw>(1.0), std::make_shared<NoDamping>()});
}

/// Framework loop: Integrator::Step on the MechanicalSystem interface, observers off. Returns q at the end.
template <class Scheme>
double FrameworkLoop(const MechanicalSystem& sys, Scheme& scheme) {
  scheme.Reset();
  MechanicalState s = sys.InitialState();
  for (int i = 0; i < kSteps; ++i)
    if (scheme.Step(sys, s, kDt).status != StepStatus::kAccepted) throw StepFailure("benchmark step rejected");
  return s.q[0];
}

volatile double g_sink = 0.0;  // keeps results alive

struct DampedContact {
  std::shared_ptr<const ContactOscillator> system;
  double exact_e = 0.0, t_c = 0.0;
};

DampedContact TsujiHertz() {
  constexpr double kP = 1.5, kE = 0.5;
  const double alpha = TsujiAlphaFromRestitution(kE, kP);
  DampedContact c;
  c.system = std::make_shared<ContactOscillator>(
      ContactOscillatorParameters{},
      DampedNormalLaw{std::make_shared<PowerLaw>(1.0, kP), std::make_shared<TsujiDamping>(alpha, 1.0, 1.0, kP)});
  FengPowerLawParameters par;
  par.exponent = kP;
  par.alpha = alpha;
  const FengPowerLawSolution exact(par);
  c.exact_e = exact.restitution();
  c.t_c = exact.contact_time();
  return c;
}

/// Restitution of one contact simulated with `integrator` at output step dt.
double SimulatedRestitution(const DampedContact& c, Integrator& integrator, double dt) {
  integrator.Reset();
  SimulationOptions so;
  so.t_end = 1.2 * c.t_c;
  so.dt = dt;
  const auto rec = Simulate(*c.system, integrator, c.system->InitialState(), so, {});
  const auto e = FirstContactMetrics(rec.events, 0).restitution;
  if (!e) throw StepFailure("benchmark contact did not end");
  return *e;
}

}  // namespace

nlohmann::json RunPeerBenchmarks(const TimingOptions& options) {
  nlohmann::json out;
  const auto osc = UndampedHertz();
  VelocityVerlet vv;
  OdeintRungeKutta rk(OdeintMethod::kRk4);

  const double q_framework = FrameworkLoop(*osc, vv);
  const double q_hand = HandVerletLoop(1.0, 1.5, kSteps, kDt);
  const double q_odeint = OdeintVelocityVerletLoop(*osc, kSteps, kDt);
  out["problem"] = "undamped Hertz impact, m = k = v0 = 1, 2000 steps of 2e-3 s (one contact)";
  out["verlet_final_q"] = {{"framework", q_framework}, {"hand_loop", q_hand}, {"odeint", q_odeint}};
  out["verlet_hand_loop_same_result"] = (q_framework == q_hand) && (q_framework == HandVerletLoopSameRhs(*osc, kSteps, kDt));

  const RatioTiming hand = TimeRatio([&] { g_sink = FrameworkLoop(*osc, vv); return long{kSteps}; },
                                     [&] { g_sink = HandVerletLoop(1.0, 1.5, kSteps, kDt); return long{kSteps}; }, options);
  out["verlet_vs_hand_loop"] = hand.ToJson();
  out["verlet_vs_hand_loop_ratio"] = hand.ratio.median;

  const RatioTiming hand_rhs = TimeRatio([&] { g_sink = FrameworkLoop(*osc, vv); return long{kSteps}; },
                                         [&] { g_sink = HandVerletLoopSameRhs(*osc, kSteps, kDt); return long{kSteps}; }, options);
  out["verlet_vs_hand_loop_same_rhs"] = hand_rhs.ToJson();
  out["verlet_vs_hand_loop_same_rhs_ratio"] = hand_rhs.ratio.median;

  const RatioTiming vo = TimeRatio([&] { g_sink = FrameworkLoop(*osc, vv); return long{kSteps}; },
                                   [&] { g_sink = OdeintVelocityVerletLoop(*osc, kSteps, kDt); return long{kSteps}; }, options);
  out["verlet_vs_odeint"] = vo.ToJson();
  out["verlet_vs_odeint_ratio"] = vo.ratio.median;

  const RatioTiming ro = TimeRatio([&] { g_sink = FrameworkLoop(*osc, rk); return long{kSteps}; },
                                   [&] { g_sink = OdeintRk4Loop(*osc, kSteps, kDt); return long{kSteps}; }, options);
  out["rk4_vs_odeint"] = ro.ToJson();
  out["rk4_vs_odeint_ratio"] = ro.ratio.median;

  // CVODE at matched accuracy (cost per contact).
  const DampedContact c = TsujiHertz();
  const double verlet_dt = c.t_c / 200.0;
  const double verlet_error = std::abs(SimulatedRestitution(c, vv, verlet_dt) - c.exact_e);
  double matched_rtol = 0.0, cvode_error = 0.0;
  for (double rtol = 1e-3; rtol >= 1e-12; rtol /= 10.0) {
    CvodeBdf::Options o;
    o.rel_tol = rtol;
    o.abs_tol = rtol * 1e-4;
    CvodeBdf cvode(o);
    const double err = std::abs(SimulatedRestitution(c, cvode, c.t_c / 10.0) - c.exact_e);
    if (err <= verlet_error) {
      matched_rtol = rtol;
      cvode_error = err;
      break;
    }
  }
  nlohmann::json matched = {{"problem", "Tsuji-damped Hertz contact, p = 1.5, e = 0.5, m = k = v0 = 1"},
                            {"exact_restitution", c.exact_e},
                            {"verlet_dt", verlet_dt},
                            {"verlet_restitution_error", verlet_error}};
  if (matched_rtol > 0.0) {
    CvodeBdf::Options o;
    o.rel_tol = matched_rtol;
    o.abs_tol = matched_rtol * 1e-4;
    CvodeBdf cvode(o);
    const RatioTiming cm = TimeRatio([&] { g_sink = SimulatedRestitution(c, cvode, c.t_c / 10.0); return 1L; },
                                     [&] { g_sink = SimulatedRestitution(c, vv, verlet_dt); return 1L; }, options);
    matched["cvode_rtol"] = matched_rtol;
    matched["cvode_restitution_error"] = cvode_error;
    matched["timing_per_contact"] = cm.ToJson();
    out["cvode_vs_verlet_matched_accuracy_ratio"] = cm.ratio.median;
  } else {
    matched["note"] = "no CVODE tolerance down to 1e-12 reached velocity Verlet's error";
    out["cvode_vs_verlet_matched_accuracy_ratio"] = nullptr;
  }
  out["cvode_matched_accuracy"] = matched;
  return out;
}

}  // namespace impactlab::bench
