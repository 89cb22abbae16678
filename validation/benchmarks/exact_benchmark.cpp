// Cost of Feng's exact solution vs a CVODE solve of the same contact [docs/exact-solution.md]:
//   BM_ExactRestitution      one closed-form restitution (construct the solution + e = exp(−πλ))
//   BM_ExactContactTime      one t_c (one tanh_sinh quadrature split at π/2)
//   BM_ExactTrajectory1000   a 1000-sample exact trajectory δ(t), δ̇(t) (Newton on t(w) per sample)
//   BM_CvodeContact          CVODE BDF (rtol 1e-10, root finding) over the same contact, restitution measured
//                            (10 output steps)
//   BM_CvodeTrajectory1000   the same with 1000 output steps (the like-for-like trajectory comparison)
// (the solution object computes its quadratures lazily, so BM_ExactRestitution costs no quadrature)
// Problem: Hertz p = 1.5, Tsuji damping e = 0.5, m = k = v0 = 1. The program prints the CVODE/exact ratios.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "exact/feng_power_law_solution.h"
#include "integrators/cvode_bdf.h"
#include "integrators/simulation.h"
#include "metrics/contact_metrics.h"
#include "models/contact_oscillator.h"
#include "run_google_benchmarks.h"

using namespace impactlab;

namespace {
constexpr double kP = 1.5, kE = 0.5;

std::shared_ptr<ContactOscillator> System() {
  ContactOscillatorParameters op;
  const double alpha = TsujiAlphaFromRestitution(kE, kP);
  return std::make_shared<ContactOscillator>(
      op, DampedNormalLaw{std::make_shared<PowerLaw>(1.0, kP), std::make_shared<TsujiDamping>(alpha, 1.0, 1.0, kP)});
}

double CvodeRestitution(const MechanicalSystem& sys, double t_c, int outputs = 10) {
  CvodeBdf::Options o;
  o.rel_tol = 1e-10;
  o.abs_tol = 1e-14;
  CvodeBdf cvode(o);
  SimulationOptions so;
  so.t_end = 1.2 * t_c;
  so.dt = t_c / outputs;  // outer (output) steps; CVODE chooses its own internal steps, root finding locates the exit
  so.stop_after_separation = 0.0;
  const auto rec = Simulate(sys, cvode, sys.InitialState(), so, {});
  return FirstContactMetrics(rec.events, 0).restitution.value_or(-1.0);
}

void BM_ExactRestitution(benchmark::State& state) {
  double v0 = 1.0;
  for (auto _ : state) {
    FengPowerLawParameters par;
    par.exponent = kP;
    par.alpha = TsujiAlphaFromRestitution(kE, kP);
    par.impact_velocity = v0;
    benchmark::DoNotOptimize(FengPowerLawSolution(par).restitution());
  }
}
BENCHMARK(BM_ExactRestitution);

void BM_ExactContactTime(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(FengPowerLawSolution::FromRestitution(1, 1, kP, kE, 1).contact_time());
}
BENCHMARK(BM_ExactContactTime);

void BM_ExactTrajectory1000(benchmark::State& state) {
  const auto sol = FengPowerLawSolution::FromRestitution(1, 1, kP, kE, 1);
  for (auto _ : state) benchmark::DoNotOptimize(sol.Trajectory(1000));
}
BENCHMARK(BM_ExactTrajectory1000)->Unit(benchmark::kMillisecond);

void BM_CvodeContact(benchmark::State& state) {
  const auto sys = System();
  const double t_c = FengPowerLawSolution::FromRestitution(1, 1, kP, kE, 1).contact_time();
  for (auto _ : state) benchmark::DoNotOptimize(CvodeRestitution(*sys, t_c));
}
BENCHMARK(BM_CvodeContact)->Unit(benchmark::kMillisecond);

void BM_CvodeTrajectory1000(benchmark::State& state) {
  const auto sys = System();
  const double t_c = FengPowerLawSolution::FromRestitution(1, 1, kP, kE, 1).contact_time();
  for (auto _ : state) benchmark::DoNotOptimize(CvodeRestitution(*sys, t_c, 1000));
}
BENCHMARK(BM_CvodeTrajectory1000)->Unit(benchmark::kMillisecond);

template <class F>
double SecondsPerCall(F&& f, int n) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / n;
}
}  // namespace

int main(int argc, char** argv) {
  if (!RunGoogleBenchmarks(argc, argv)) return 1;
  // The ratios (a separate short timing, so they are printed even with --benchmark_filter).
  const auto sys = System();
  const auto sol = FengPowerLawSolution::FromRestitution(1, 1, kP, kE, 1);
  volatile double sink = 0;
  const double t_e = SecondsPerCall([&] { sink = FengPowerLawSolution::FromRestitution(1, 1, kP, kE, 1).restitution(); }, 20);
  const double t_traj = SecondsPerCall([&] { sink = sol.Trajectory(1000).back().delta; }, 3);
  const double t_cv = SecondsPerCall([&] { sink = CvodeRestitution(*sys, sol.contact_time()); }, 20);
  const double t_cv1000 = SecondsPerCall([&] { sink = CvodeRestitution(*sys, sol.contact_time(), 1000); }, 5);
  std::printf("CVODE (rtol 1e-10) contact / exact restitution = %.3g\n", t_cv / t_e);
  std::printf("CVODE (rtol 1e-10) 1000-output trajectory / exact 1000-sample trajectory = %.3g\n", t_cv1000 / t_traj);
  std::printf("exact restitution: %.3g s, exact trajectory: %.3g s, CVODE: %.3g s (e_CVODE - e = %.2e)\n", t_e, t_traj,
              t_cv, CvodeRestitution(*sys, sol.contact_time()) - kE);
  (void)sink;
  return 0;
}
