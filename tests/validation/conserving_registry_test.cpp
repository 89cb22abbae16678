// Contract checks for the integrators and models registered by register_conserving*.cpp: traits carry a
// reference, bad dt and bad keys are rejected with the key named, time advances by exactly h, free flight
// is integrated exactly, and the summary of the new scenarios carries the conservation metrics.
#include <doctest/doctest.h>

#include <cmath>

#include "core/errors.h"
#include "registry/registries.h"
#include "run/scenario_runner.h"
#include "scenario/scenario.h"

using namespace impactlab;

namespace {
const std::vector<std::string> kNames = {"implicit_midpoint", "simo_tarnow",       "gonzalez_dg",
                                         "gonzalez_dg_invariant", "newmark",       "trapezoidal",
                                         "hht_alpha",         "generalized_alpha"};
}  // namespace

TEST_CASE("conserving registry: contract of every registered implicit scheme") {
  ParameterSet mp;
  mp.Set("initial_gap", 10.0);  // free flight for the whole test
  mp.Set("k", 1.0);
  const ModelInstance model = ModelRegistry().Get("contact_oscillator").make(mp);
  for (const auto& name : kNames) {
    CAPTURE(name);
    REQUIRE(IntegratorRegistry().Has(name));
    auto integrator = IntegratorRegistry().Get(name).make(ParameterSet{});
    CHECK_FALSE(integrator->traits().reference.empty());
    CHECK(integrator->traits().implicit);
    MechanicalState s = model.system->InitialState();
    CHECK_THROWS_AS((void)integrator->Step(*model.system, s, 0.0), InvalidParameter);
    CHECK_THROWS_AS((void)integrator->Step(*model.system, s, std::nan("")), InvalidParameter);
    for (int n = 0; n < 10; ++n) REQUIRE(integrator->Step(*model.system, s, 0.125).status == StepStatus::kAccepted);
    CHECK(s.t == 1.25);                          // exactly 10 h (h a power of two)
    CHECK(s.q[0] == doctest::Approx(10.0 - 1.25).epsilon(1e-15));  // free flight: q = y0 − v0 t
    CHECK(s.v[0] == -1.0);
  }
}

TEST_CASE("conserving registry: newton_linear_solver accepts band, and a bad value names key, value and valid values") {
  for (const char* value : {"auto", "band", "direct", "bicgstab_diagonal", "bicgstab_ilut"}) {
    CAPTURE(value);
    ParameterSet p;
    p.Set("newton_linear_solver", std::string(value));
    CHECK_NOTHROW((void)IntegratorRegistry().Get("simo_tarnow").make(p));
  }
  ParameterSet bad;
  bad.Set("newton_linear_solver", std::string("banded"));
  CHECK_THROWS_AS((void)IntegratorRegistry().Get("simo_tarnow").make(bad), InvalidParameter);
  CHECK_THROWS_WITH((void)IntegratorRegistry().Get("simo_tarnow").make(bad),
                    doctest::Contains("newton_linear_solver = \"banded\""));
  CHECK_THROWS_WITH((void)IntegratorRegistry().Get("simo_tarnow").make(bad),
                    doctest::Contains("auto, band, bicgstab_diagonal, bicgstab_ilut, direct"));
}

TEST_CASE("conserving registry: bad keys are named") {
  ParameterSet p;
  p.Set("nonlinear_solver", std::string("broyden"));
  CHECK_THROWS_WITH(IntegratorRegistry().Get("simo_tarnow").make(p), doctest::Contains("nonlinear_solver"));
  ParameterSet q;
  q.Set("rho_inf", 2.0);
  CHECK_THROWS_WITH(IntegratorRegistry().Get("generalized_alpha").make(q), doctest::Contains("rho_inf"));
  ParameterSet c;
  c.Set("num_beads", 1.0);
  c.Set("k", 1.0);
  CHECK_THROWS_WITH(ModelRegistry().Get("bead_chain").make(c), doctest::Contains("num_beads"));
  ParameterSet d;
  d.Set("num_disks", 2001.0);  // above the dense contact list's cap (models/disk_cloud.h)
  d.Set("k", 1.0);
  CHECK_THROWS_WITH(ModelRegistry().Get("disk_cloud").make(d), doctest::Contains("num_disks"));
  ParameterSet t;
  t.Set("v1", -1.0);
  t.Set("k", 1.0);
  CHECK_THROWS_WITH(ModelRegistry().Get("two_body").make(t), doctest::Contains("v1"));
}

TEST_CASE("conserving registry: shipped scenarios report the conservation metrics") {
  for (const std::string file : {"two_body.toml", "hertz_chain.toml", "disk_cloud.toml"}) {
    CAPTURE(file);
    RunRequest r;
    r.scenario = LoadScenario(std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/" + file);
    r.integrators = {"simo_tarnow"};
    r.scenario.parameters.Set("t_end", 50.0 * r.scenario.parameters.GetDouble("dt"));  // short run
    const auto summary = RunScenario(r);
    const auto& run = summary["runs"][0];
    CHECK(run["energy_error_max"].is_number());
    CHECK(run["energy_balance_residual_max"].get<double>() <= 1e-12);
    REQUIRE(run["momentum_drift_max"].is_number());
    CHECK(run["momentum_drift_max"].get<double>() <= 1e-12);
  }
}
