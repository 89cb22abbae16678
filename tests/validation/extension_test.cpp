// The public extension API (registry/extension.h) and the integrator audit (audit/integrator_audit.h):
// a user integrator / law / model registered at run time is used by RunScenario, appears in `list` of the
// in-process CLI, passes the contract and the order audit; names are checked; built-ins cannot be replaced.
#include <doctest/doctest.h>

#include <cmath>
#include <iostream>
#include <sstream>

#include "audit/integrator_audit.h"
#include "cli/cli_app.h"
#include "contact/power_law.h"
#include "core/errors.h"
#include "integrators/velocity_verlet.h"
#include "registry/extension.h"
#include "run/scenario_runner.h"
#include "scenario/scenario.h"

using namespace impactlab;

namespace {

/// Velocity Verlet under another name: results must equal the built-in's bit for bit.
class RenamedVerlet final : public Integrator {
 public:
  std::string name() const override { return "user_verlet"; }
  IntegratorTraits traits() const override { return inner_.traits(); }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override {
    return inner_.Step(system, state, h);
  }
  VelocityVerlet inner_;
};

/// An integrator that keeps q and v (the base class still advances t): breaks the contract, has no order.
class Frozen final : public Integrator {
 public:
  std::string name() const override { return "user_frozen"; }
  IntegratorTraits traits() const override {
    IntegratorTraits t;
    t.order = 2;
    t.reference = "none";
    return t;
  }

 private:
  StepResult DoStep(const MechanicalSystem&, MechanicalState&, double) override { return {}; }
};

const char* kUnitHertz =
    "model = \"contact_oscillator\"\nnormal_law = \"hertz\"\nk = 1.0\nm = 1.0\nv0 = 1.0\ne = 0.8\n"
    "damping = \"tsuji\"\nt_end = 5.0\ndt = 0.01\n";

}  // namespace

TEST_CASE("extension API: a user integrator runs, lists, and passes the contract and order audit") {
  RegisterIntegrator("user_verlet", "velocity Verlet again (test)", [](const ParameterSet&) {
    return std::make_unique<RenamedVerlet>();
  });
  REQUIRE(IntegratorRegistry().Has("user_verlet"));
  RunRequest req;
  req.scenario = ParseScenario(kUnitHertz, "unit_hertz");
  req.integrators = {"velocity_verlet", "user_verlet"};
  const auto summary = RunScenario(req);
  CHECK(summary["runs"][1]["integrator"] == "user_verlet");
  CHECK(summary["runs"][0]["restitution"].get<double>() == summary["runs"][1]["restitution"].get<double>());
  CHECK(summary["runs"][0]["max_overlap"].get<double>() == summary["runs"][1]["max_overlap"].get<double>());

  CHECK(CheckIntegratorContract("user_verlet").ok());
  const OrderAuditReport audit = AuditOrder("user_verlet");
  REQUIRE(audit.observed_order);
  CHECK(*audit.observed_order == doctest::Approx(2.0).epsilon(0.075));
  CHECK(audit.passes);

  // `list` of the in-process CLI shows it (list prints to std::cout: capture it)
  std::ostringstream captured;
  auto* old_buf = std::cout.rdbuf(captured.rdbuf());
  const char* argv[] = {"impactlab", "list"};
  const int status = cli::RunCli(2, argv);
  std::cout.rdbuf(old_buf);
  CHECK(status == 0);
  CHECK(captured.str().find("  user_verlet (order 2) - velocity Verlet again (test)") != std::string::npos);
}

TEST_CASE("extension API: the audit catches a broken integrator") {
  RegisterIntegrator("user_frozen", "keeps the state (test)", [](const ParameterSet&) { return std::make_unique<Frozen>(); });
  const IntegratorContractReport c = CheckIntegratorContract("user_frozen");
  CHECK_FALSE(c.ok());
  CHECK(c.failures.size() >= 2);  // q[0] and q[1] of the free particle not advanced
  const OrderAuditReport a = AuditOrder("user_frozen");
  CHECK_FALSE(a.passes);  // error does not fall with h: slope ≈ 0
  REQUIRE(a.observed_order);
  CHECK(std::abs(*a.observed_order) < 0.1);
}

TEST_CASE("extension API: a user normal law is used by the contact oscillator") {
  // Hertz with k = 2 under another name: identical runs.
  RegisterNormalLaw("user_hertz", "Hertz (test)", [](const ParameterSet& p) {
    return std::make_shared<HertzLaw>(p.GetDouble("k"));
  });
  RunRequest a, b;
  a.scenario = ParseScenario(kUnitHertz, "a");
  ApplyOverride(a.scenario, "k=2");
  b.scenario = ParseScenario(kUnitHertz, "b");
  ApplyOverride(b.scenario, "k=2");
  ApplyOverride(b.scenario, "normal_law=user_hertz");
  a.integrators = b.integrators = {"rk4"};
  const auto ra = RunScenario(a), rb = RunScenario(b);
  CHECK(ra["runs"][0]["max_overlap"].get<double>() == rb["runs"][0]["max_overlap"].get<double>());
  CHECK(ra["runs"][0]["restitution"].get<double>() == rb["runs"][0]["restitution"].get<double>());
}

TEST_CASE("extension API: names are checked and built-ins cannot be replaced") {
  auto vv = [](const ParameterSet&) { return std::make_unique<VelocityVerlet>(); };
  CHECK_THROWS_WITH_AS(RegisterIntegrator("velocity_verlet", "again", vv),
                       "invalid integrator = \"velocity_verlet\" (valid: a name not registered yet (a registered name "
                       "cannot be replaced))",
                       InvalidParameter);
  CHECK_THROWS_AS(RegisterIntegrator("Bad-Name", "x", vv), InvalidParameter);
  CHECK_THROWS_AS(RegisterIntegrator("", "x", vv), InvalidParameter);
  // the factory's integrator must report the registered name
  CHECK_THROWS_WITH_AS(RegisterIntegrator("my_vv", "x", vv),
                       "invalid integrator = \"my_vv\" (valid: the name the integrator reports (name() = "
                       "\"velocity_verlet\"))",
                       InvalidParameter);
  CHECK_FALSE(IntegratorRegistry().Has("my_vv"));
  CHECK_THROWS_AS(RegisterModel("contact_oscillator", "x", ModelRegistry().Get("two_body").make), InvalidParameter);
  CHECK_THROWS_AS(RegisterNormalLaw("new_law", "x", NormalLawFactory{}), InvalidParameter);
}
