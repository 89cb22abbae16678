#include "bench/exact_benchmarks.h"

#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "core/errors.h"
#include "exact/feng_power_law_solution.h"
#include "integrators/cvode_bdf.h"
#include "integrators/simulation.h"
#include "metrics/contact_metrics.h"
#include "models/contact_oscillator.h"

namespace impactlab::bench {
namespace {
constexpr double kP = 1.5, kE = 0.5;
volatile double g_sink = 0.0;

FengPowerLawParameters Parameters() {
  FengPowerLawParameters par;
  par.exponent = kP;
  par.alpha = TsujiAlphaFromRestitution(kE, kP);
  return par;
}
}  // namespace

nlohmann::json RunExactBenchmarks(const TimingOptions& options) {
  const FengPowerLawParameters par = Parameters();
  const FengPowerLawSolution solution(par);
  const double t_c = solution.contact_time();
  const auto system = std::make_shared<ContactOscillator>(
      ContactOscillatorParameters{},
      DampedNormalLaw{std::make_shared<PowerLaw>(1.0, kP), std::make_shared<TsujiDamping>(par.alpha, 1.0, 1.0, kP)});
  auto cvode_restitution = [&] {
    CvodeBdf cvode;  // rtol 1e-10, atol 1e-14
    SimulationOptions so;
    so.t_end = 1.2 * t_c;
    so.dt = t_c / 10.0;
    const auto rec = Simulate(*system, cvode, system->InitialState(), so, {});
    const auto e = FirstContactMetrics(rec.events, 0).restitution;
    if (!e) throw StepFailure("CVODE benchmark contact did not end");
    return *e;
  };
  const double e_cvode = cvode_restitution();

  const Spread restitution = TimePerItem(
      [&] {
        for (int i = 0; i < 1000; ++i) g_sink = FengPowerLawSolution(par).restitution();
        return 1000L;
      },
      options);
  const Spread contact_time = TimePerItem([&] { g_sink = FengPowerLawSolution(par).contact_time(); return 1L; }, options);
  const Spread trajectory =
      TimePerItem([&] { g_sink = FengPowerLawSolution(par).Trajectory(1000).back().delta; return 1L; }, options);
  const Spread cvode = TimePerItem([&] { g_sink = cvode_restitution(); return 1L; }, options);
  return {{"problem", "Hertz p = 1.5, Tsuji e = 0.5, m = k = v0 = 1"},
          {"exact_restitution", solution.restitution()},
          {"cvode_restitution", e_cvode},
          {"exact_restitution_ns", restitution.median},
          {"exact_restitution_ns_spread", restitution.ToJson()},
          {"exact_contact_time_ns", contact_time.median},
          {"exact_trajectory_1000_ns", trajectory.median},
          {"cvode_contact_ns", cvode.median},
          {"cvode_contact_ns_spread", cvode.ToJson()},
          {"exact_vs_cvode_speedup", cvode.median / restitution.median}};
}

}  // namespace impactlab::bench
