// Extensibility of the contact seam: a normal contact law defined only in this file and registered here (the public
// extension API, registry/extension.h) runs on sphere_wall (with friction and spin) and on bead_chain with every
// energy-consistent scheme, and the energy books close (E + D − W_g − E₀ at round-off) [docs/architecture.md,
// "How to add a law"].
#include <doctest/doctest.h>

#include <cmath>

#include "contact/normal_contact_law.h"
#include "registry/extension.h"
#include "registry/registries.h"
#include "run/scenario_runner.h"

using namespace impactlab;

namespace {

// A stiffening law that is not a power law: W = k (cosh(δ/ℓ) − 1) ℓ² for δ > 0, F = k ℓ sinh(δ/ℓ), K = k cosh(δ/ℓ).
class CoshLaw final : public NormalContactLaw {
 public:
  CoshLaw(double k, double length) : k_(k), l_(length) {}
  std::string name() const override { return "test_cosh_law"; }
  std::string reference() const override { return "test-only law W = k l^2 (cosh(delta/l) - 1)"; }
  double Potential(double d) const override { return d > 0.0 ? k_ * l_ * l_ * (std::cosh(d / l_) - 1.0) : 0.0; }
  double Force(double d) const override { return d > 0.0 ? k_ * l_ * std::sinh(d / l_) : 0.0; }
  double Stiffness(double d) const override { return d > 0.0 ? k_ * std::cosh(d / l_) : 0.0; }
  double EffectiveStiffness(double d) const override {
    if (!(d > 0.0)) return k_;
    const double x = d / l_;
    return x < 1e-4 ? k_ * (1.0 + x * x / 6.0) : k_ * std::sinh(x) * std::sinh(x) / (2.0 * (std::cosh(x) - 1.0));
  }
  double coefficient() const override { return k_; }
  double exponent() const override { return 1.0; }

 private:
  double k_, l_;
};

void RegisterOnce() {
  static const bool done = [] {
    RegisterNormalLaw("test_cosh_law", "test-only stiffening law (keys: k, cosh_length)", [](const ParameterSet& p) {
      return std::make_shared<CoshLaw>(p.GetDouble("k"), p.GetDouble("cosh_length"));
    });
    return true;
  }();
  (void)done;
}

nlohmann::json RunWith(Scenario s, const std::string& integrator) {
  RunRequest r;
  r.scenario = std::move(s);
  r.integrators = {integrator};
  return RunScenario(r)["runs"][0];
}

}  // namespace

TEST_CASE("contact seam: a law registered in a test runs on sphere_wall and bead_chain with every conserving scheme") {
  RegisterOnce();
  Scenario wall;
  wall.model = "sphere_wall";
  ParameterSet& w = wall.parameters;
  w.Set("normal_law", std::string("test_cosh_law"));
  w.Set("k", 5.0e6);
  w.Set("cosh_length", 2.0e-5);
  w.Set("radius", 2.5e-3);
  w.Set("theta_deg", 40.0);
  w.Set("speed", 1.0);
  w.Set("omega0", 200.0);
  w.Set("mu", 0.2);
  w.Set("tangential_law", std::string("mindlin_integral"));
  w.Set("dt", 2.0e-7);
  w.Set("t_end", 1.0e-3);
  w.Set("stop_after_separation", 1.0e-6);
  Scenario chain;
  chain.model = "bead_chain";
  ParameterSet& c = chain.parameters;
  c.Set("normal_law", std::string("test_cosh_law"));
  c.Set("k", 1.0e6);
  c.Set("cosh_length", 1.0e-4);
  c.Set("num_beads", 8.0);
  c.Set("R", 0.005);
  c.Set("m", 0.0041);
  c.Set("v0", 1.0);
  c.Set("dt", 1.0e-6);
  c.Set("t_end", 2.0e-3);
  for (const char* scheme : {"simo_tarnow", "gonzalez_dg", "gonzalez_dg_invariant", "efda"}) {
    CAPTURE(scheme);
    const nlohmann::json rw = RunWith(wall, scheme);
    CHECK(rw["contacts"].get<long>() == 1);
    CHECK(rw["separated"].get<bool>());
    CHECK(rw["integration_residual_max"].get<double>() <= 1e-12);
    const nlohmann::json rc = RunWith(chain, scheme);
    CHECK(rc["energy_balance_residual_max"].get<double>() <= 1e-12);
  }
}
