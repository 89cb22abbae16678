// MechanicalSystem::default_hooks() is a promise that the generic explicit steps act on by skipping calls
// (lib/system/default_hooks.h). These cases check the promises: for the contact oscillator in and out of contact,
// undamped and damped, for the bead chain and the sphere assembly with their contacts closed, for the one-contact models
// along a velocity Verlet run through their contact, and for every registered model that builds from its defaults, at
// its initial state.
#include <doctest/doctest.h>

#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "integrators/velocity_verlet.h"
#include "models/contact_oscillator.h"
#include "registry/registries.h"
#include "registry/sphere_assembly_registration.h"
#include "scenario/scenario.h"
#include "state/same_bits.h"
#include "system/constant_mass_system.h"

using namespace impactlab;

namespace {

/// Every declared default behaves as the default at state s (the hooks a model leaves alone are not checked).
void CheckPromises(const MechanicalSystem& system, const MechanicalState& s) {
  const DefaultHooks hooks = system.default_hooks();
  if (hooks.position_rate_is_velocity) {
    REQUIRE(s.q.size() == s.v.size());
    Eigen::VectorXd q_dot = Eigen::VectorXd::Constant(s.q.size(), 7.0);
    system.PositionRate(s, q_dot);
    CHECK(SameBits(q_dot, s.v));
  }
  if (hooks.no_coordinate_normalization) {
    MechanicalState n = s;
    system.NormalizeCoordinates(n);
    CHECK(n.SameBits(s));
  }
  if (hooks.no_discrete_history) {
    MechanicalState before = s, after = s;
    after.t += 1e-3;
    after.q.array() += 1e-4;  // a step's worth of motion: an incremental law would write z
    const MechanicalState expected = after;
    system.UpdateHistory(before, after);
    CHECK(after.SameBits(expected));
  }
  if (hooks.no_dissipation) CHECK(system.DissipationPower(s) == 0.0);
}

}  // namespace

TEST_CASE("default hooks: the contact oscillator's promises hold in and out of contact") {
  for (const bool damped : {false, true}) {
    CAPTURE(damped);
    std::shared_ptr<const DampingLaw> damping = std::make_shared<NoDamping>();
    if (damped) damping = std::make_shared<TsujiDamping>(0.2, 1.0, 1.0, 1.5);
    const ContactOscillator osc(ContactOscillatorParameters{},
                                DampedNormalLaw{std::make_shared<HertzLaw>(1.0), damping});
    const DefaultHooks hooks = osc.default_hooks();
    CHECK(hooks.position_rate_is_velocity);
    CHECK(hooks.no_coordinate_normalization);
    CHECK(hooks.no_discrete_history);
    CHECK(hooks.no_dissipation == !damped);  // a damper dissipates: DissipationPower is called
    MechanicalState s = osc.InitialState();
    for (const double y : {0.5, 0.0, -0.3}) {  // free, touching, in contact
      s.q[0] = y;
      CheckPromises(osc, s);
    }
  }
}

TEST_CASE("default hooks: every registered model that builds from its defaults keeps its promises") {
  for (const auto& name : ModelRegistry().names()) {
    CAPTURE(name);
    std::shared_ptr<const MechanicalSystem> system;
    try {
      system = ModelRegistry().Get(name).make(ParameterSet{}).system;
    } catch (const std::exception&) {
      continue;  // needs parameters a scenario gives
    }
    REQUIRE(system);
    CheckPromises(*system, system->InitialState());
  }
}

TEST_CASE("default hooks: the bead chain's promises hold with every contact closed, undamped and damped") {
  for (const double e : {1.0, 0.5}) {
    CAPTURE(e);
    ParameterSet p;
    p.Set("e", e);  // e < 1: Tsuji damping (the registry's default)
    for (const auto& [key, value] : std::vector<std::pair<std::string, double>>{
             {"num_beads", 10.0}, {"E_star", 1.15e11}, {"R_star", 0.0025}, {"R", 0.005}, {"m", 0.0041}})
      p.Set(key, value);
    const auto system = ModelRegistry().Get("bead_chain").make(p).system;
    const DefaultHooks hooks = system->default_hooks();
    CHECK(hooks.position_rate_is_velocity);
    CHECK(hooks.no_coordinate_normalization);
    CHECK(hooks.no_discrete_history);
    CHECK(hooks.no_dissipation == (e == 1.0));  // a damper dissipates: DissipationPower is called
    MechanicalState s = system->InitialState();
    for (Eigen::Index i = 0; i < s.q.size(); ++i) {  // displacements from the touching lattice: δ = 1 µm each
      s.q[i] = -1e-6 * static_cast<double>(i);
      s.v[i] = (i % 2 == 0 ? 0.3 : -0.2);  // every contact closing or opening
    }
    const auto* pairs = dynamic_cast<const ConstantMassSystem*>(system.get());
    REQUIRE(pairs);
    REQUIRE(pairs->Potential(s.q) > 0.0);
    if (e < 1.0) CHECK(system->DissipationPower(s) > 0.0);
    CheckPromises(*system, s);
  }
}

TEST_CASE("default hooks: the sphere assembly's promises hold in a compressed packing, undamped and damped") {
  for (const double e_n : {1.0, 0.5}) {
    CAPTURE(e_n);
    ParameterSet p;
    for (const char* key : {"nx", "ny", "nz"}) p.Set(key, 4.0);
    p.Set("gap", -2e-6);  // every lattice neighbour and the floor overlap from the start
    p.Set("mu", 0.3);
    p.Set("e_n", e_n);  // e_n < 1: Tsuji damping (the registry's default)
    p.Set("random_speed", 0.2);
    p.Set("seed", 3.0);
    const auto system = MakeSphereAssembly(p);
    const DefaultHooks hooks = system->default_hooks();
    CHECK(hooks.position_rate_is_velocity);
    CHECK(hooks.no_coordinate_normalization);
    CHECK_FALSE(hooks.no_discrete_history);  // the tangential springs live in z: UpdateHistory must be called
    CHECK(hooks.no_dissipation == (e_n == 1.0));
    const MechanicalState s = system->InitialState();
    const auto contacts = system->CountContacts(s);
    REQUIRE(contacts.first > 100);
    REQUIRE(contacts.second > 0);
    Eigen::VectorXd a(s.v.size());
    system->Acceleration(s, a);  // the contact cache DissipationPower reads when it holds
    if (e_n < 1.0) CHECK(system->DissipationPower(s) > 0.0);
    CheckPromises(*system, s);
  }
}

TEST_CASE("default hooks: the one-contact models keep their promises along a run through contact, undamped and damped") {
  // Each scenario as shipped and with its damper switched (off when shipped on, on when shipped off).
  const std::string dir = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/";
  struct Case {
    const char* file;
    const char* switched;  // the override that switches the damper
    bool shipped_damped;
    bool declares_no_dissipation;  // declares P = 0 when undamped (the planar ellipses never do: friction)
  };
  for (const Case c : {Case{"sphere_pair.toml", "e_n=1", true, true}, Case{"sphere_wall_thornton.toml", "e_n=0.5", false, true},
                       Case{"ellipsoid_wall.toml", "e_cn=1", true, true},
                       Case{"ellipse_box_mindlin.toml", "xi_N=0.1", false, false}}) {
    for (const bool switched : {false, true}) {
      const std::string file = c.file;
      CAPTURE(file);
      CAPTURE(switched);
      Scenario sc = LoadScenario(dir + c.file);
      if (switched) ApplyOverride(sc, c.switched);
      const bool damped = c.shipped_damped != switched;
      const auto system = ModelRegistry().Get(sc.model).make(sc.parameters).system;
      const DefaultHooks hooks = system->default_hooks();
      CHECK(hooks.position_rate_is_velocity);
      CHECK(hooks.no_coordinate_normalization);
      CHECK(hooks.no_dissipation == (!damped && c.declares_no_dissipation));
      VelocityVerlet vv;
      MechanicalState s = system->InitialState();
      const double dt = sc.parameters.GetDouble("dt"), t_end = sc.parameters.GetDouble("t_end");
      double max_power = 0.0;
      long steps = 0;
      for (; s.t < t_end && steps < 40000; ++steps) {
        REQUIRE(vv.Step(*system, s, dt).status == StepStatus::kAccepted);
        CheckPromises(*system, s);
        max_power = std::max(max_power, system->DissipationPower(s));
      }
      CAPTURE(steps);
      // The run passes through contact: with a damper it dissipates, without one P stays 0.
      if (damped)
        CHECK(max_power > 0.0);
      else
        CHECK(max_power == 0.0);
    }
  }
}
