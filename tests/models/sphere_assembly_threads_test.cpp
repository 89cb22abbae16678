// sphere_assembly on 1 and 2 OpenMP threads (core/contact_threads.h): the parallel contact loops fill one slot per
// candidate and combine the slots in candidate order, so a run is bitwise the same for any thread count. The
// packing is large enough (2197 spheres, ~6000 contacts) that the loops do run in parallel. The same for
// Simo–Tarnow's steps (the step force F̄, the contact blocks and the refill of the sparse Newton Jacobian on the
// contact threads: models/sphere_assembly.cpp, system/block_sparse_assembly.h).
#include <doctest/doctest.h>

#include "core/contact_threads.h"
#include "core/errors.h"
#include "core/parameter_set.h"
#include "integrators/simo_tarnow.h"
#include "integrators/simulation.h"
#include "integrators/velocity_verlet.h"
#include "models/sphere_assembly.h"
#include "registry/sphere_assembly_registration.h"

using namespace impactlab;

namespace {

/// 2 197 spheres on a compressed lattice: ~3 sphere contacts per sphere from the start.
ParameterSet CompressedPacking() {
  ParameterSet p;
  p.Set("nx", 13.0);
  p.Set("ny", 13.0);
  p.Set("nz", 13.0);
  p.Set("mu", 0.3);
  p.Set("gap", -2e-6);
  return p;
}

SimulationRecord RunPacking(int threads, bool simo_tarnow = false) {
  SetContactThreads(threads);
  ParameterSet p = CompressedPacking();
  p.Set("random_speed", 0.2);
  p.Set("seed", 3.0);
  const auto sys = MakeSphereAssembly(p);
  SimulationOptions o;
  o.dt = 2e-7;
  o.t_end = (simo_tarnow ? 4 : 30) * 2e-7;
  o.locate_events = false;
  VelocityVerlet vv;
  SimoTarnow st;
  SimulationRecord r = simo_tarnow ? Simulate(*sys, st, sys->InitialState(), o, {})
                                   : Simulate(*sys, vv, sys->InitialState(), o, {});
  if (simo_tarnow) MESSAGE("Simo-Tarnow Newton iterations ", st.statistics().newton_iterations);
  const auto contacts = sys->CountContacts(r.final_state);
  MESSAGE(threads, " thread(s) requested, ", ContactThreads(), " in effect; contacts ", contacts.first, " + ",
          contacts.second);
  CHECK(contacts.first + contacts.second > 1000);
  return r;
}

struct RestoreThreads {
  int saved = ContactThreads();
  ~RestoreThreads() { SetContactThreads(saved); }
};

}  // namespace

TEST_CASE("sphere_assembly: 1 and 2 contact threads give bitwise identical runs") {
  RestoreThreads restore;
  const SimulationRecord one = RunPacking(1);
  const SimulationRecord two = RunPacking(2);
  if (ContactThreadsAvailable()) {
    CHECK(ContactThreads() == 2);
  } else {
    MESSAGE("built without OpenMP: both runs are serial");
  }
  CHECK(one.final_state.q == two.final_state.q);
  CHECK(one.final_state.v == two.final_state.v);
  CHECK(one.final_state.z == two.final_state.z);
  CHECK(one.final_state.dissipated == two.final_state.dissipated);
}

TEST_CASE("sphere_assembly: Simo-Tarnow steps are bitwise identical on 1 and 2 contact threads") {
  RestoreThreads restore;
  const SimulationRecord one = RunPacking(1, true);
  const SimulationRecord two = RunPacking(2, true);
  if (ContactThreadsAvailable()) CHECK(ContactThreads() == 2);
  CHECK(one.final_state.t == two.final_state.t);
  CHECK(one.final_state.q == two.final_state.q);
  CHECK(one.final_state.v == two.final_state.v);
  CHECK(one.final_state.z == two.final_state.z);
  CHECK(one.final_state.dissipated == two.final_state.dissipated);
}

TEST_CASE("contact threads: a thread count below 1 is refused with the key and range") {
  RestoreThreads restore;
  CHECK_THROWS_WITH_AS(SetContactThreads(0), "invalid threads = 0 (valid: an integer >= 1)", InvalidParameter);
}

TEST_CASE("sphere_assembly: a history-slot overflow names the same sphere on 1 and 2 contact threads") {
  // UpdateHistory takes the slots per sphere on the contact threads; an overflow is rethrown for the smallest
  // sphere index, as the serial pass would report it.
  RestoreThreads restore;
  auto message = [](int threads) {
    SetContactThreads(threads);
    ParameterSet p = CompressedPacking();  // a corner sphere owns 3 sphere contacts and touches 3 walls
    p.Set("history_slots", 2.0);
    const auto sys = MakeSphereAssembly(p);
    VelocityVerlet vv;
    MechanicalState s = sys->InitialState();
    try {
      (void)vv.Step(*sys, s, 2e-7);
    } catch (const InvalidParameter& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string one = message(1), two = message(2);
  CHECK(one.find("history_slots") != std::string::npos);
  CHECK(one.find("sphere 0 ") != std::string::npos);
  CHECK(two == one);
}
