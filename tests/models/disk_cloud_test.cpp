// disk_cloud / ParticleAssembly with the cell-list broad phase (lib/geometry/cell_list.h): V, ∇V, ∇²V, C(q)
// and whole runs are bitwise identical to the full loop over all N(N−1)/2 pairs (the pre-cell-list path,
// set_broad_phase(false)), and the candidate list holds every touching pair but only O(N) pairs.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "integrators/implicit_midpoint.h"
#include "integrators/simo_tarnow.h"
#include "core/errors.h"
#include "core/parameter_set.h"
#include "integrators/simulation.h"
#include "integrators/velocity_verlet.h"
#include "models/disk_cloud.h"
#include "registry/registries.h"

using namespace impactlab;

namespace {

DampedNormalLaw Law(bool damped) {
  auto hertz = std::make_shared<HertzLaw>(1e3);
  if (!damped) return DampedNormalLaw{hertz, std::make_shared<NoDamping>()};
  // Tsuji damping C = α√(m k) δ^¼: continuous at touch, so the implicit schemes' Newton converges.
  return DampedNormalLaw{hertz, std::make_shared<TsujiDamping>(0.3, 0.5, 1e3, 1.5)};
}

DiskCloudParameters Params(int n) {
  DiskCloudParameters p;
  p.num_disks = n;
  p.contraction_speed = 1.0;  // a strongly contracting cloud: many simultaneous contacts
  return p;
}

bool BitwiseEqual(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0) return false;
  return true;
}

}  // namespace

TEST_CASE("disk_cloud: the cell-list broad phase is on by default and lists every touching pair, O(N) of them") {
  DiskCloud cloud(Params(400), Law(false));
  CHECK(cloud.broad_phase());
  // A state of the contracted cloud, after a velocity-Verlet run: many overlaps.
  MechanicalState s = cloud.InitialState();
  VelocityVerlet vv;
  for (int n = 0; n < 600; ++n) REQUIRE(vv.Step(cloud, s, 2e-3).status == StepStatus::kAccepted);
  const std::vector<int> active = cloud.CandidateTerms(s.q);
  CHECK(std::is_sorted(active.begin(), active.end()));
  CHECK(active.size() < 8 * 400);                         // a 2-D packing: ≲ 3 neighbours per disk in range
  CHECK(cloud.ContactTerms().size() == 400u * 399u / 2u);  // the dense list is unchanged
  std::vector<char> is_active(cloud.ContactTerms().size(), 0);
  for (int k : active) is_active[static_cast<size_t>(k)] = 1;
  int touching = 0;
  for (size_t k = 0; k < cloud.ContactTerms().size(); ++k)
    if (ContactOverlap(cloud.ContactTerms()[k], s.q) > 0.0) {
      ++touching;
      CHECK(is_active[k]);
    }
  CHECK(touching > 0);
}

TEST_CASE("disk_cloud: V, grad V, Hessian and damping matrix are bitwise those of the all-pairs loop") {
  DiskCloud fast(Params(100), Law(true)), full(Params(100), Law(true));
  full.set_broad_phase(false);
  REQUIRE(fast.broad_phase());
  // States along a velocity-Verlet run through the contraction (overlaps appear and vanish).
  MechanicalState s = fast.InitialState();
  VelocityVerlet vv;
  int compared_in_contact = 0;
  for (int n = 0; n < 600; ++n) {
    REQUIRE(vv.Step(full, s, 2e-3).status == StepStatus::kAccepted);
    if (n % 50 != 0) continue;
    Eigen::VectorXd g1(s.q.size()), g2(s.q.size());
    fast.PotentialGradient(s.q, g1);
    full.PotentialGradient(s.q, g2);
    CHECK(BitwiseEqual(g1, g2));
    const double v1 = fast.Potential(s.q), v2 = full.Potential(s.q);
    CHECK(std::memcmp(&v1, &v2, sizeof(double)) == 0);
    const Eigen::MatrixXd h1 = fast.PotentialHessian(s.q), h2 = full.PotentialHessian(s.q);
    CHECK(BitwiseEqual(h1.reshaped(), h2.reshaped()));
    const Eigen::MatrixXd c1 = fast.DampingMatrix(s.q), c2 = full.DampingMatrix(s.q);
    CHECK(BitwiseEqual(c1.reshaped(), c2.reshaped()));
    if (v1 > 0.0) ++compared_in_contact;
  }
  CHECK(compared_in_contact >= 3);
}

TEST_CASE("disk_cloud: velocity Verlet, implicit midpoint and Simo-Tarnow runs are bitwise identical with and without the cell list") {
  for (const bool damped : {false, true}) {
    CAPTURE(damped);
    DiskCloud fast(Params(64), Law(damped)), full(Params(64), Law(damped));
    full.set_broad_phase(false);
    {
      MechanicalState a = fast.InitialState(), b = full.InitialState();
      VelocityVerlet va, vb;
      int steps_in_contact = 0;
      for (int n = 0; n < 1500; ++n) {
        REQUIRE(va.Step(fast, a, 2e-3).status == StepStatus::kAccepted);
        REQUIRE(vb.Step(full, b, 2e-3).status == StepStatus::kAccepted);
        if (full.Potential(b.q) > 0.0) ++steps_in_contact;
      }
      CHECK(steps_in_contact > 100);  // the run goes through many collisions
      CHECK(BitwiseEqual(a.q, b.q));
      CHECK(BitwiseEqual(a.v, b.v));
    }
    {
      MechanicalState a = fast.InitialState(), b = full.InitialState();
      ImplicitMidpoint ia, ib;
      for (int n = 0; n < 600; ++n) {
        REQUIRE(ia.Step(fast, a, 5e-3).status == StepStatus::kAccepted);
        REQUIRE(ib.Step(full, b, 5e-3).status == StepStatus::kAccepted);
      }
      CHECK(BitwiseEqual(a.q, b.q));
      CHECK(BitwiseEqual(a.v, b.v));
    }
    {  // the discrete gradient sums over CandidateTermsBetween(q_n, q_n+1)
      REQUIRE(fast.CandidateTermsBetween(fast.InitialState().q, fast.InitialState().q) != nullptr);
      REQUIRE(full.CandidateTermsBetween(full.InitialState().q, full.InitialState().q) == nullptr);
      MechanicalState a = fast.InitialState(), b = full.InitialState();
      SimoTarnow sa, sb;
      for (int n = 0; n < 600; ++n) {
        REQUIRE(sa.Step(fast, a, 5e-3).status == StepStatus::kAccepted);
        REQUIRE(sb.Step(full, b, 5e-3).status == StepStatus::kAccepted);
      }
      CHECK(BitwiseEqual(a.q, b.q));
      CHECK(BitwiseEqual(a.v, b.v));
      CHECK(a.dissipated == b.dissipated);
    }
  }
}

TEST_CASE("disk_cloud: N up to 2000 (the dense contact list), events located through the touching contacts") {
  // n = 2001: InvalidParameter naming num_disks, its range and the reason, from the model and from the registry.
  DiskCloudParameters too_many = Params(DiskCloudParameters::kMaxDisks + 1);
  try {
    too_many.Validate();
    FAIL("no throw");
  } catch (const InvalidParameter& e) {
    CHECK(e.parameter() == "num_disks");
    CHECK(std::string(e.what()).find("[2, 2000]") != std::string::npos);
    CHECK(std::string(e.what()).find("dense") != std::string::npos);
  }
  ParameterSet p;
  p.Set("num_disks", 2001.0);
  CHECK_THROWS_WITH_AS(ModelRegistry().Get("disk_cloud").make(p), doctest::Contains("[2, 2000]"), InvalidParameter);
  // n = 2000: 1 999 000 pair terms; 100 velocity-Verlet steps of the contracting cloud through the simulation driver,
  // whose located contact starts all belong to pairs that touch at the step end (TouchingContacts) and whose
  // located overlap is zero to the locator's tolerance.
  const DiskCloud cloud(Params(DiskCloudParameters::kMaxDisks), Law(false));
  REQUIRE(cloud.num_contacts() == 2000 * 1999 / 2);
  VelocityVerlet vv;
  SimulationOptions o;
  o.dt = 2e-3;
  o.t_end = 0.2;
  const SimulationRecord r = Simulate(cloud, vv, cloud.InitialState(), o, {});
  REQUIRE(r.failure.empty());
  long starts = 0;
  for (const ContactEvent& ev : r.events) {
    if (ev.kind != ContactEventKind::kStart) continue;
    ++starts;
    CHECK(std::abs(ev.overlap) <= 1e-12 * cloud.parameters().radius);
  }
  std::vector<MechanicalSystem::ContactReading> touching;
  cloud.TouchingContacts(r.final_state, touching);
  MESSAGE("2000 disks, 100 steps: " << starts << " contact starts, " << touching.size() << " touching pairs at the end");
  CHECK(starts > 100);
  CHECK(touching.size() > 100);
  const double p_scale = *cloud.LinearMomentumScale(r.final_state);
  CHECK((*cloud.LinearMomentum(r.final_state) - *cloud.LinearMomentum(cloud.InitialState())).norm() <= 1e-13 * p_scale);
}
