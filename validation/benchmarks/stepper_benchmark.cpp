// Stepper benchmarks (Google Benchmark): our steppers against Boost.Odeint's on the SAME right-hand side
// (ContactOscillator::Acceleration, undamped Hertz impact, m = k = v0 = 1, 2000 steps through one contact),
// run in the same process. Read the ratios, not the absolute times:
//   BM_ImpactlabVelocityVerlet / BM_OdeintVelocityVerlet   cost of our Verlet (generic interface, caching)
//   BM_ImpactlabRk4 / BM_OdeintRk4                          overhead of the Integrator adapter around odeint
#include <benchmark/benchmark.h>

#include <boost/numeric/odeint.hpp>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "integrators/odeint_runge_kutta.h"
#include "integrators/velocity_verlet.h"
#include "models/contact_oscillator.h"

namespace {

using namespace impactlab;
namespace odeint = boost::numeric::odeint;

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
  using Vec = std::vector<double>;
  for (auto _ : st) {
    MechanicalState scratch = osc.InitialState();
    Vec x{scratch.q[0]}, v{scratch.v[0]};
    odeint::velocity_verlet<Vec> stepper;
    auto accel = [&](const Vec& pos, const Vec&, Vec& a, double) {
      scratch.q[0] = pos[0];
      Eigen::Map<Eigen::VectorXd> am(a.data(), 1);
      osc.Acceleration(scratch, am);
    };
    double t = 0;
    for (int i = 0; i < kSteps; ++i, t += kDt) stepper.do_step(accel, std::make_pair(std::ref(x), std::ref(v)), t, kDt);
    benchmark::DoNotOptimize(x[0]);
  }
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
  using Vec = std::vector<double>;
  for (auto _ : st) {
    MechanicalState scratch = osc.InitialState();
    Vec y{scratch.q[0], scratch.v[0]};
    odeint::runge_kutta4<Vec> stepper;
    auto rhs = [&](const Vec& x, Vec& dxdt, double) {
      scratch.q[0] = x[0];
      scratch.v[0] = x[1];
      Eigen::Map<Eigen::VectorXd> am(&dxdt[1], 1);
      osc.Acceleration(scratch, am);
      dxdt[0] = x[1];
    };
    double t = 0;
    for (int i = 0; i < kSteps; ++i, t += kDt) stepper.do_step(rhs, y, t, kDt);
    benchmark::DoNotOptimize(y[0]);
  }
  st.SetItemsProcessed(st.iterations() * kSteps);
}

BENCHMARK(BM_ImpactlabVelocityVerlet);
BENCHMARK(BM_OdeintVelocityVerlet);
BENCHMARK(BM_ImpactlabRk4);
BENCHMARK(BM_OdeintRk4);

}  // namespace

BENCHMARK_MAIN();
