// Critical time step closed forms [docs/theory.md §4], the observed-order fit, velocity Verlet's second order in
// δ_max against the exact solution on undamped Hertz, and the `exact` / `dtcrit` CLI JSON.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "convergence/exact_convergence.h"
#include "core/errors.h"
#include "exact/critical_time_step.h"
#include "integrators/velocity_verlet.h"
#include "registry/registries.h"

using namespace impactlab;

namespace {
std::string RunCli(const std::string& args, int& status) {
  std::string out;
  FILE* pipe = popen((std::string(IMPACTLAB_BINARY) + " " + args + " 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe)) out += buf.data();
  status = pclose(pipe);
  return out;
}
}  // namespace

TEST_CASE("critical time step: 4 delta_max/((p+1) v0), steps per contact, tangent and damped variants") {
  struct Row {
    double p, steps;
  };
  // docs/theory.md §4: t_c0/Δt_crit = (p+1)/2 I_p, printed to 5 significant digits.
  for (const Row r : {Row{1.0, 1.5708}, Row{1.5, 1.8395}, Row{2.0, 2.1033}, Row{3.0, 2.6221}}) {
    const auto c = PowerLawCriticalTimeStep(0.3, 20.0, r.p, 2.0);
    CHECK(c.steps_per_contact == doctest::Approx(r.steps).epsilon(5e-5));
    CHECK(c.delta_max_undamped ==
          doctest::Approx(std::pow((r.p + 1) * 0.3 * 4.0 / (2 * 20.0), 1 / (r.p + 1))).epsilon(1e-14));
    CHECK(c.effective == doctest::Approx(4 * c.delta_max_undamped / ((r.p + 1) * 2.0)).epsilon(1e-15));
    CHECK(c.tangent == doctest::Approx(c.effective * std::sqrt((r.p + 1) / (2 * r.p))).epsilon(1e-15));
    CHECK(c.effective_damped == c.effective);
  }
  // p = 1: 2/ω exactly, and Belytschko's damped bound with ζ = ξ.
  const auto lin = PowerLawCriticalTimeStep(2.0, 8.0, 1.0, 5.0, 2 * 0.3);
  CHECK(lin.effective == doctest::Approx(2.0 / std::sqrt(8.0 / 2.0)).epsilon(1e-15));
  CHECK(lin.effective_damped == doctest::Approx(lin.effective * (std::sqrt(1 + 0.09) - 0.3)).epsilon(1e-15));
  CHECK_THROWS_AS(PowerLawCriticalTimeStep(1, 1, 1.5, -1), InvalidParameter);
}

TEST_CASE("ObservedOrder: least-squares slope over the asymptotic range, round-off floor excluded") {
  std::vector<double> dt{0.1, 0.05, 0.025, 0.0125, 0.00625}, err;
  for (double h : dt) err.push_back(3.0 * h * h * (1 + 0.3 * h));  // pre-asymptotic term at coarse h
  CHECK(*ObservedOrder(dt, err) == doctest::Approx(2.0).epsilon(0.01));
  err.back() = 1e-15;  // at the floor: ignored
  CHECK(*ObservedOrder(dt, err) == doctest::Approx(2.0).epsilon(0.02));
  CHECK_FALSE(ObservedOrder({0.1}, {1e-3}).has_value());
}

TEST_CASE("velocity Verlet is second order in delta_max against the exact solution (undamped Hertz)") {
  ParameterSet p;
  p.Set("normal_law", std::string("hertz"));
  p.Set("k", 1.0);
  p.Set("m", 1.0);
  p.Set("v0", 1.0);
  p.Set("e", 1.0);
  auto sys = ModelRegistry().Get("contact_oscillator").make(p).system;
  const ExactReference ref = MakeExactReference(*sys);
  std::vector<double> dts{0.04, 0.02, 0.01, 0.005}, err_d, err_t;
  for (double dt : dts) {
    VelocityVerlet vv;
    const auto e = MeasureAgainstExact(*sys, vv, ref, dt);
    err_d.push_back(e.delta_max);
    err_t.push_back(e.trajectory);
  }
  // Measured 2.02 (docs/exact-solution.md §5); a first-order defect would give ≈ 1.
  CHECK(*ObservedOrder(dts, err_d) == doctest::Approx(2.0).epsilon(0.08));
  CHECK(*ObservedOrder(dts, err_t) == doctest::Approx(2.0).epsilon(0.08));
}

TEST_CASE("CLI exact --json and dtcrit --json report the closed forms") {
  int status = 0;
  const std::string out = RunCli("exact --p 2 --e 0.5 --m 1 --k 1 --v0 1 --json", status);
  REQUIRE(status == 0);
  const auto j = nlohmann::json::parse(out);
  for (const char* key : {"p", "alpha", "restitution", "delta_max", "t_max", "t_contact", "energy_dissipated_loading",
                          "energy_dissipated_unloading", "rebounds"})
    CHECK(j.contains(key));
  CHECK(j["delta_max"].get<double>() == doctest::Approx(0.938050).epsilon(5e-7));
  CHECK(j["t_contact"].get<double>() == doctest::Approx(3.671569).epsilon(5e-7));
  CHECK(j["rebounds"].get<bool>());
  const auto over = nlohmann::json::parse(RunCli("exact --p 1.5 --alpha 10 --json", status));
  CHECK(over["rebounds"].get<bool>() == false);
  CHECK(over["t_contact"].is_null());
  const auto d = nlohmann::json::parse(RunCli("dtcrit --p 3 --json", status));
  CHECK(d["steps_per_contact_at_dt_crit_effective"].get<double>() == doctest::Approx(2.6221).epsilon(5e-5));
  const std::string bad = RunCli("exact --p 0.5 --e 0.5", status);
  CHECK(status != 0);
  CHECK(bad.find("p = 0.5") != std::string::npos);
}
