// The sparse contact readings of MechanicalSystem (TouchingContacts, ContactOverlapOf) that the simulation driver and
// the event-split schemes read instead of the dense ContactOverlaps:
//   - on disk_cloud (ParticleAssembly, cell list) and on the planar ellipses (ContactSlots' broad phase, with walls
//     and pairs) they are bitwise the entries of ContactOverlaps: the same contacts (every δ ≥ 0, ascending), the
//     same δ and δ̇, the ellipses' stand-in −1 m outside the broad phase included;
//   - whole runs through Simulate (velocity_verlet, velocity_verlet_event, rk4_event) locate bitwise the same events
//     and end in bitwise the same state as with MechanicalSystem's defaults, which derive both readings from
//     ContactOverlaps (the driver's path before the sparse readings).
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "core/errors.h"
#include "core/parameter_set.h"
#include "integrators/event_split_runge_kutta4.h"
#include "integrators/event_split_velocity_verlet.h"
#include "integrators/simulation.h"
#include "integrators/velocity_verlet.h"
#include "models/disk_cloud.h"
#include "models/ellipse_box.h"
#include "models/ellipses_multi.h"
#include "models/planar_ellipses.h"
#include "system/forwarding_system.h"

using namespace impactlab;

namespace {

using Reading = MechanicalSystem::ContactReading;

bool Same(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

bool Same(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!Same(a[i], b[i])) return false;
  return true;
}

/// The model with MechanicalSystem's default readings (derived from ContactOverlaps): every other query forwarded.
class DenseReadings final : public ForwardingSystem {
 public:
  using ForwardingSystem::ForwardingSystem;
  Reading ContactOverlapOf(const MechanicalState& s, int contact) const override {
    return MechanicalSystem::ContactOverlapOf(s, contact);
  }
  void TouchingContacts(const MechanicalState& s, std::vector<Reading>& out) const override {
    MechanicalSystem::TouchingContacts(s, out);
  }
};

/// TouchingContacts and ContactOverlapOf of `system` at s against the dense ContactOverlaps, bitwise; returns the
/// number of touching contacts.
int CheckReadingsAgainstDense(const MechanicalSystem& system, const MechanicalState& s) {
  const size_t nc = static_cast<size_t>(system.num_contacts());
  std::vector<double> delta(nc), rate(nc);
  system.ContactOverlaps(s, delta, rate);
  std::vector<Reading> expected;
  for (size_t i = 0; i < nc; ++i)
    if (delta[i] >= 0.0) expected.push_back({static_cast<int>(i), delta[i], rate[i]});
  std::vector<Reading> touching{{7, 1.0, 1.0}};  // not empty: TouchingContacts clears it first
  system.TouchingContacts(s, touching);
  REQUIRE(touching.size() == expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    CHECK(touching[k].contact == expected[k].contact);
    CHECK(Same(touching[k].overlap, expected[k].overlap));
    CHECK(Same(touching[k].rate, expected[k].rate));
  }
  bool all_same = true;
  for (size_t i = 0; i < nc; ++i) {
    const Reading r = system.ContactOverlapOf(s, static_cast<int>(i));
    all_same = all_same && r.contact == static_cast<int>(i) && Same(r.overlap, delta[i]) && Same(r.rate, rate[i]);
  }
  CHECK(all_same);
  return static_cast<int>(expected.size());
}

/// CheckReadingsAgainstDense every `every` of `steps` velocity-Verlet steps of size dt from the initial state;
/// returns the most touching contacts seen and leaves the last state in `s`.
int MostTouchingAlongRun(const MechanicalSystem& system, int steps, int every, double dt, MechanicalState& s) {
  s = system.InitialState();
  VelocityVerlet vv;
  int most = 0;
  for (int n = 0; n <= steps; ++n) {
    if (n % every == 0) most = std::max(most, CheckReadingsAgainstDense(system, s));
    REQUIRE(vv.Step(system, s, dt).status == StepStatus::kAccepted);
  }
  return most;
}

/// The same run with the model's readings and with the defaults: the same events and end state, bitwise.
void CheckSameRun(const MechanicalSystem& model, Integrator& integrator, const SimulationOptions& options,
                  int min_events) {
  CAPTURE(integrator.name());
  const DenseReadings dense(model);
  const SimulationRecord sparse_run = Simulate(model, integrator, model.InitialState(), options, {});
  const SimulationRecord dense_run = Simulate(dense, integrator, model.InitialState(), options, {});
  CHECK(sparse_run.failure.empty());
  CHECK(static_cast<int>(sparse_run.events.size()) >= min_events);
  REQUIRE(sparse_run.events.size() == dense_run.events.size());
  bool all_same = true;
  for (size_t k = 0; k < sparse_run.events.size(); ++k) {
    const ContactEvent& a = sparse_run.events[k];
    const ContactEvent& b = dense_run.events[k];
    all_same = all_same && a.contact == b.contact && a.kind == b.kind && Same(a.t, b.t) && Same(a.overlap, b.overlap) &&
               Same(a.overlap_rate, b.overlap_rate) && Same(a.state.q, b.state.q) && Same(a.state.v, b.state.v) &&
               a.located_by == b.located_by;
  }
  CHECK(all_same);
  CHECK(Same(sparse_run.final_state.q, dense_run.final_state.q));
  CHECK(Same(sparse_run.final_state.v, dense_run.final_state.v));
  CHECK(Same(sparse_run.final_state.z, dense_run.final_state.z));
  MESSAGE(integrator.name() << " on " << model.name() << ": " << sparse_run.events.size() << " events, "
                            << sparse_run.steps << " steps");
}

DiskCloud Cloud(int n) {
  DiskCloudParameters p;
  p.num_disks = n;
  p.contraction_speed = 1.0;  // a strongly contracting cloud: many simultaneous contacts
  return DiskCloud(p, DampedNormalLaw{std::make_shared<HertzLaw>(1e3),
                                      std::make_shared<TsujiDamping>(0.3, 0.5, 1e3, 1.5)});
}

PlanarEllipses Ellipses(int n) {
  ParameterSet p;
  p.Set("n", static_cast<double>(n));
  p.Set("spacing", 0.1005);
  p.Set("speed", 3.0);
  p.Set("K_N", 1e6);
  p.Set("K_T", 1e6);
  return PlanarEllipses(MakeEllipsesMultiConfig(p));
}

}  // namespace

TEST_CASE("disk_cloud: the touching contacts and one contact's reading are ContactOverlaps' entries, bitwise") {
  const DiskCloud cloud = Cloud(400);
  REQUIRE(cloud.broad_phase());
  MechanicalState s;
  const int most = MostTouchingAlongRun(cloud, 600, 100, 2e-3, s);
  MESSAGE("400 disks: up to " << most << " touching pairs of " << cloud.num_contacts());
  CHECK(most > 100);
  CHECK_THROWS_AS(cloud.ContactOverlapOf(s, cloud.num_contacts()), InvalidParameter);
  CHECK_THROWS_AS(cloud.ContactOverlapOf(s, -1), InvalidParameter);
  CHECK_THROWS_AS(DenseReadings(cloud).ContactOverlapOf(s, cloud.num_contacts()), InvalidParameter);  // the default
}

TEST_CASE("planar ellipses: the same for pair slots (with the stand-in outside the broad phase) and wall slots") {
  const PlanarEllipses lattice = Ellipses(36);
  MechanicalState s;
  const int most = MostTouchingAlongRun(lattice, 200, 40, 5e-5, s);
  CHECK(most >= 3);  // observed 5 of 630 slots; the others are stand-ins or apart
  CHECK_THROWS_AS(lattice.ContactOverlapOf(s, lattice.num_contacts()), InvalidParameter);

  const PlanarEllipses box(MakeEllipseBoxConfig(EllipseBoxParameters{}));
  REQUIRE(box.num_contacts() == 4);  // one ellipse, four walls
  MechanicalState b = box.InitialState();
  VelocityVerlet vv;
  int touched = 0;
  for (int n = 0; n < 4000; ++n) {
    if (n % 20 == 0) touched += CheckReadingsAgainstDense(box, b);
    REQUIRE(vv.Step(box, b, 1e-4).status == StepStatus::kAccepted);
  }
  CHECK(touched > 0);
}

TEST_CASE("Simulate with the sparse readings locates the same events as with the dense ones, bitwise") {
  SimulationOptions o;
  o.dt = 2e-3;
  o.t_end = 0.6;
  const DiskCloud cloud = Cloud(100);
  VelocityVerlet vv;
  EventSplitVelocityVerlet vv_event;
  EventSplitRungeKutta4 rk4_event;
  for (Integrator* integrator : std::initializer_list<Integrator*>{&vv, &vv_event, &rk4_event})
    CheckSameRun(cloud, *integrator, o, 20);

  SimulationOptions oe;
  oe.dt = 5e-5;
  oe.t_end = 0.01;
  const PlanarEllipses lattice = Ellipses(25);
  for (Integrator* integrator : std::initializer_list<Integrator*>{&vv, &vv_event, &rk4_event})
    CheckSameRun(lattice, *integrator, oe, 5);
}

TEST_CASE("Simulate with event_states = false: the same events and end state, without a state per event") {
  SimulationOptions o;
  o.dt = 2e-3;
  o.t_end = 0.6;
  const DiskCloud cloud = Cloud(100);
  VelocityVerlet vv;
  const SimulationRecord with = Simulate(cloud, vv, cloud.InitialState(), o, {});
  o.event_states = false;
  const SimulationRecord without = Simulate(cloud, vv, cloud.InitialState(), o, {});
  REQUIRE(with.events.size() == without.events.size());
  REQUIRE(with.events.size() > 20);
  bool same = true, stateless = true;
  for (size_t k = 0; k < with.events.size(); ++k) {
    const ContactEvent& a = with.events[k];
    const ContactEvent& b = without.events[k];
    same = same && a.contact == b.contact && a.kind == b.kind && Same(a.t, b.t) && Same(a.overlap, b.overlap) &&
           Same(a.overlap_rate, b.overlap_rate) && a.located_by == b.located_by;
    stateless = stateless && b.state.q.size() == 0 && b.state.v.size() == 0 && b.state.z.size() == 0 &&
                Same(b.state.t, b.t) && a.state.q.size() == cloud.InitialState().q.size();
  }
  CHECK(same);
  CHECK(stateless);
  CHECK(Same(with.final_state.q, without.final_state.q));
  CHECK(Same(with.final_state.v, without.final_state.v));
}
