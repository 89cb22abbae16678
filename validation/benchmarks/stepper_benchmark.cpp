// Stepper benchmarks (Google Benchmark): our steppers against Boost.Odeint's on the SAME right-hand side
// (ContactOscillator::Acceleration, undamped Hertz impact, m = k = v0 = 1, 2000 steps through one contact),
// run in the same process. Read the ratios, not the absolute times:
//   BM_ImpactlabVelocityVerlet / BM_OdeintVelocityVerlet   cost of our Verlet (generic interface, caching)
//   BM_ImpactlabRk4 / BM_OdeintRk4                          overhead of the Integrator adapter around odeint
#include <benchmark/benchmark.h>

#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "bench/peer_loops.h"
#include "integrators/odeint_runge_kutta.h"
#include "integrators/velocity_verlet.h"
#include "models/contact_oscillator.h"

namespace {

using namespace impactlab;

constexpr int kSteps = 2000;
constexpr double kDt = 4.0 / kSteps;  // t_c = 3.218 s for the undamped Hertz impact

const ContactOscillator& Oscillator() {
  static const ContactOscillator osc(ContactOscillatorParameters{},
                                     DampedNormalLaw{std::make_shared<HertzLaw>(1.0), std::make_shared<NoDamping>()});
  return osc;
}

void BM_ImpactlabVelocityVerlet(benchmark::State& st) {
  const auto& osc = Oscillator();
  for (auto _ : st) {
    VelocityVerlet vv;
    MechanicalState s = osc.InitialState();
    for (int i = 0; i < kSteps; ++i) (void)vv.Step(osc, s, kDt);
    benchmark::DoNotOptimize(s.q[0]);
  }
  st.SetItemsProcessed(st.iterations() * kSteps);
}

void BM_OdeintVelocityVerlet(benchmark::State& st) {
  const auto& osc = Oscillator();
  for (auto _ : st) benchmark::DoNotOptimize(bench::OdeintVelocityVerletLoop(osc, kSteps, kDt));
  st.SetItemsProcessed(st.iterations() * kSteps);
}

void BM_ImpactlabRk4(benchmark::State& st) {
  const auto& osc = Oscillator();
  for (auto _ : st) {
    OdeintRungeKutta rk(OdeintMethod::kRk4);
    MechanicalState s = osc.InitialState();
    for (int i = 0; i < kSteps; ++i) (void)rk.Step(osc, s, kDt);
    benchmark::DoNotOptimize(s.q[0]);
  }
  st.SetItemsProcessed(st.iterations() * kSteps);
}

void BM_OdeintRk4(benchmark::State& st) {
  const auto& osc = Oscillator();
  for (auto _ : st) benchmark::DoNotOptimize(bench::OdeintRk4Loop(osc, kSteps, kDt));
  st.SetItemsProcessed(st.iterations() * kSteps);
}

BENCHMARK(BM_ImpactlabVelocityVerlet);
BENCHMARK(BM_OdeintVelocityVerlet);
BENCHMARK(BM_ImpactlabRk4);
BENCHMARK(BM_OdeintRk4);

}  // namespace

BENCHMARK_MAIN();
