// siconos_moreau_jean on the sphere assembly's rigid frictional contacts (models/sphere_assembly.h: every sphere
// pair and sphere–wall pair declared through system/frictional_contact_structure.h, the rows of
// models/sphere_frictional_contact.h): one sphere on the floor is sphere_wall, two spheres are sphere_pair (the same
// Newton–Coulomb problem, final states to 1e-12), an oblique impact on any wall of the box gives Walton's rigid
// closed form [Walton 1993; Brach 1991; validation/references/rigid_sphere_impact_theory.h], the scenario without e
// takes the e_n the compliant laws are calibrated to, and more than 64 spheres are refused naming nx*ny*nz.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.h"
#include "core/parameter_set.h"
#include "models/sphere_assembly.h"
#include "models/sphere_pair_impact.h"
#include "models/sphere_wall_impact.h"
#include "references/rigid_sphere_impact_theory.h"
#include "registry/registries.h"
#include "registry/sphere_assembly_registration.h"
#include "support/run_impactlab.h"

using namespace impactlab;

namespace {

constexpr double kSameProblem = 1e-12;      ///< the brief's bound for "the same Newton–Coulomb problem", relative
constexpr double kImpulseTolerance = 1e-12;  ///< FC3D NSGS at 1e-14 on a one-contact problem, relative to |v|

/// Steps `steps` × h with siconos_moreau_jean made from `keys`; returns the final state.
MechanicalState RunMoreauJean(const MechanicalSystem& system, const ParameterSet& keys, double h, int steps) {
  auto integrator = IntegratorRegistry().Get("siconos_moreau_jean").make(keys);
  MechanicalState s = system.InitialState();
  for (int i = 0; i < steps; ++i) REQUIRE(integrator->Step(system, s, h).status == StepStatus::kAccepted);
  return s;
}

/// max |a − b| / scale over the first `n` entries.
double MaxDeviation(const Eigen::VectorXd& a, const Eigen::VectorXd& b, Eigen::Index n, double scale) {
  return (a.head(n) - b.head(n)).lpNorm<Eigen::Infinity>() / scale;
}

/// One sphere (and its spin) of a single-sphere model's initial state as an assembly configuration, no gravity.
SphereAssemblyConfiguration SpheresOf(const MechanicalState& s0, int spheres, double radius, double density) {
  SphereAssemblyConfiguration c;
  c.radius = radius;
  c.density = density;
  c.gravity = 0.0;
  for (int b = 0; b < spheres; ++b) {
    c.positions.push_back(s0.q.segment<3>(6 * b));
    c.velocities.push_back(s0.v.segment<3>(6 * b));
    c.spins.push_back(s0.v.segment<3>(6 * b + 3));
  }
  return c;
}

}  // namespace

TEST_CASE("siconos_moreau_jean assembly: one sphere over the floor equals sphere_wall to 1e-12") {
  // Thornton's sphere at 40 deg with back spin and side spin (3-D slip), 20 um above the floor: the impact falls in
  // the 6th step of 1e-6 s; 40 steps carry it through and on.
  ParameterSet p;
  p.Set("radius", 0.025);
  p.Set("density", 2650.0);
  p.Set("speed", 5.0);
  p.Set("theta_deg", 40.0);
  p.Set("omega0", -150.0);
  p.Set("omega0_x", 60.0);
  p.Set("initial_gap", 2e-5);
  p.Set("mu", 0.3);
  p.Set("e_n", 0.8);
  const ModelInstance wall_model = ModelRegistry().Get("sphere_wall").make(p);
  const auto& wall = dynamic_cast<const SphereWallImpact&>(*wall_model.system);
  SphereAssemblyConfiguration c = SpheresOf(wall.InitialState(), 1, 0.025, 2650.0);
  c.walls = {AssemblyWall{}};  // the floor z = 0, n = e_z
  const SphereAssembly assembly(c, wall.contact_law(), wall.contact_law());
  REQUIRE(assembly.num_frictional_contacts() == 1);
  const double h = 1e-6;
  const MechanicalState a = RunMoreauJean(assembly, p, h, 40), w = RunMoreauJean(wall, p, h, 40);
  const MechanicalState w0 = wall.InitialState();
  // The impact happened, with friction: rebound and a changed slip.
  REQUIRE(w.v[2] > 0.0);
  REQUIRE(std::abs(w.v[0] - w0.v[0]) > 0.1);
  const double dq = MaxDeviation(a.q, w.q, 6, 0.025), dv = MaxDeviation(a.v, w.v, 6, 5.0);
  MESSAGE("one sphere vs sphere_wall: max |dq|/R = " << dq << ", max |dv|/|v0| = " << dv
                                                     << ", dD = " << a.dissipated - w.dissipated);
  CHECK(dq <= kSameProblem);
  CHECK(dv <= kSameProblem);
  CHECK(std::abs(a.dissipated - w.dissipated) <= kSameProblem * wall.KineticEnergy(w0));
}

TEST_CASE("siconos_moreau_jean assembly: two spheres without gravity reproduce sphere_pair to 1e-12") {
  // Chung & Ooi's spheres (R = 0.1 m) with spin, oblique, 10 um apart; a floor 0.9 m below the lower sphere is
  // declared (its contacts come after the pair's) but never in reach.
  ParameterSet p;
  p.Set("radius1", 0.1);
  p.Set("radius2", 0.1);
  p.Set("density1", 2700.0);
  p.Set("density2", 2700.0);
  p.Set("v1_n", 0.2);
  p.Set("v2_n", 0.2);
  p.Set("v1_t", 0.3);
  p.Set("v2_t", -0.1);
  p.Set("omega1_y", 10.0);
  p.Set("omega2_x", -3.0);
  p.Set("initial_gap", 1e-5);
  p.Set("e_n", 0.5);
  p.Set("mu", 0.4);
  const ModelInstance pair_model = ModelRegistry().Get("sphere_pair").make(p);
  const auto& pair = dynamic_cast<const SpherePairImpact&>(*pair_model.system);
  SphereAssemblyConfiguration c = SpheresOf(pair.InitialState(), 2, 0.1, 2700.0);
  c.walls = {AssemblyWall{Eigen::Vector3d(0.0, 0.0, -1.0), Eigen::Vector3d::UnitZ()}};
  const SphereAssembly assembly(c, pair.contact_law(), pair.contact_law());
  REQUIRE(assembly.num_frictional_contacts() == 3);
  const double h = 5e-6;
  const MechanicalState a = RunMoreauJean(assembly, p, h, 40), s = RunMoreauJean(pair, p, h, 40);
  const MechanicalState s0 = pair.InitialState();
  // The impact happened: the spheres separate, the lower one moves down.
  REQUIRE(s.v[2] < 0.0);
  REQUIRE(s.v[8] > 0.0);
  const double dq = MaxDeviation(a.q, s.q, 12, 0.1), dv = MaxDeviation(a.v, s.v, 12, 0.4);
  MESSAGE("two spheres vs sphere_pair: max |dq|/R = " << dq << ", max |dv|/|v_rel| = " << dv);
  CHECK(dq <= kSameProblem);
  CHECK(dv <= kSameProblem);
  CHECK(std::abs(a.dissipated - s.dissipated) <= kSameProblem * pair.KineticEnergy(s0));
}

TEST_CASE("siconos_moreau_jean assembly: oblique impacts on the floor and the side walls give Walton's e_t and beta") {
  // A solid sphere touching one wall of a 1 m box at t = 0 (g = 0), normal speed v_n, tangential velocity v_t along
  // t and spin w about b = n x t: the step's friction-contact problem is Walton's algebraic one (W = diag(1/m, 7/(2m),
  // 7/(2m)) in (n, t1, t2)), so v_n+ = e v_n, v_t+ and w_b+ are the closed form, and nothing moves along b.
  const double radius = 0.025, density = 2650.0, e = 0.8, mu = 0.3, side = 1.0;
  ParameterSet keys;
  keys.Set("e_n", e);
  const ContactLaw law = [&]() {
    ParameterSet wall_keys;
    wall_keys.Set("radius", radius);
    wall_keys.Set("density", density);
    wall_keys.Set("mu", mu);
    return dynamic_cast<const SphereWallImpact&>(*ModelRegistry().Get("sphere_wall").make(wall_keys).system)
        .contact_law();
  }();
  const AssemblyWall box[4] = {{Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ()},
                               {Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX()},
                               {Eigen::Vector3d(side, 0.0, 0.0), -Eigen::Vector3d::UnitX()},
                               {Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY()}};
  for (int target = 0; target < 4; ++target) {
    const Eigen::Vector3d n = box[target].normal;
    const Eigen::Vector3d t = target == 0 || target == 3 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitZ();
    const Eigen::Vector3d b = n.cross(t);
    for (double theta : {5.0, 40.0, 70.0, 85.0}) {
      for (double omega0 : {0.0, -150.0}) {
        CAPTURE(target);
        CAPTURE(theta);
        CAPTURE(omega0);
        const double speed = 5.0, vn = speed * std::cos(theta * std::numbers::pi / 180.0), vt = speed * std::sin(theta * std::numbers::pi / 180.0);
        SphereAssemblyConfiguration c;
        c.radius = radius;
        c.density = density;
        c.gravity = 0.0;
        c.walls.assign(box, box + 4);
        c.positions = {Eigen::Vector3d::Constant(0.5 * side) + (radius - 0.5 * side) * n};  // touching wall `target`
        c.velocities = {-vn * n + vt * t};
        c.spins = {omega0 * b};
        const SphereAssembly assembly(c, law, law);
        const MechanicalState s = RunMoreauJean(assembly, keys, 1e-5, 3);
        RigidSphereImpactInput in;
        in.normal_speed = vn;
        in.tangential_velocity = vt;
        in.omega_y = omega0;
        in.radius = radius;
        in.mu = mu;
        in.e_n = e;
        const RigidSphereImpactResult rigid = RigidSphereImpact(in);
        const Eigen::Vector3d v = s.v.head<3>(), w = s.v.segment<3>(3);
        CHECK(std::abs(v.dot(n) - e * vn) <= kImpulseTolerance * speed);
        CHECK(std::abs(v.dot(t) - rigid.tangential_velocity) <= kImpulseTolerance * speed);
        CHECK(std::abs(radius * (w.dot(b) - rigid.omega_y)) <= kImpulseTolerance * speed);
        CHECK(std::abs(v.dot(b)) <= kImpulseTolerance * speed);
        CHECK(std::abs(radius * w.dot(t)) <= kImpulseTolerance * speed);
        CHECK(std::abs(radius * w.dot(n)) <= kImpulseTolerance * speed);
        if (omega0 == 0.0) {  // e_t and beta themselves (without spin: e_t = 5/7 when sticking)
          REQUIRE(rigid.e_t);
          CHECK(std::abs(v.dot(t) / vt - *rigid.e_t) <= kImpulseTolerance * speed / vt);
          const double slip_after = v.dot(t) - radius * w.dot(b);
          CHECK(std::abs(-slip_after / vt - rigid.beta) <= kImpulseTolerance * speed / vt);
        }
        // Impact and friction losses in D (theta = 1/2, no force): T + D = T0.
        const double t0 = assembly.KineticEnergy(assembly.InitialState());
        CHECK(std::abs(assembly.KineticEnergy(s) + s.dissipated - t0) <= 1e-13 * t0);
      }
    }
  }
}

TEST_CASE("siconos_moreau_jean assembly: without e in the scenario Newton's law takes the calibrated e_n") {
  // The registry's assembly defaults to e_n = 0.5 (its Tsuji damper is calibrated to it); the nonsmooth scheme built
  // without e or e_n must use that, not 1. A lone sphere dropped 1e-5 m onto the floor at 1 m/s, no gravity.
  ParameterSet keys;
  keys.Set("nx", 1.0);
  keys.Set("ny", 1.0);
  keys.Set("nz", 1.0);
  keys.Set("gravity", 0.0);
  keys.Set("random_speed", 0.0);
  keys.Set("jitter", 0.0);
  const auto lattice = MakeSphereAssembly(keys);
  SphereAssemblyConfiguration c = lattice->configuration();
  c.positions[0].z() = c.radius + 1e-5;
  c.velocities[0] = Eigen::Vector3d(0.0, 0.0, -1.0);
  const SphereAssembly assembly(c, lattice->sphere_law(), lattice->wall_law());
  REQUIRE(assembly.CalibratedRestitution() == 0.5);
  const MechanicalState s = RunMoreauJean(assembly, ParameterSet{}, 1e-6, 30);
  CHECK(s.v[2] == doctest::Approx(0.5).epsilon(1e-12));
  ParameterSet with_e;
  with_e.Set("e", 0.9);
  CHECK(RunMoreauJean(assembly, with_e, 1e-6, 30).v[2] == doctest::Approx(0.9).epsilon(1e-12));
}

TEST_CASE("siconos_moreau_jean assembly: more than 64 spheres is one line naming nx*ny*nz, exit 2") {
  ParameterSet keys;
  keys.Set("nx", 5.0);
  keys.Set("ny", 13.0);
  keys.Set("nz", 1.0);
  const auto assembly = MakeSphereAssembly(keys);
  auto integrator = IntegratorRegistry().Get("siconos_moreau_jean").make(keys);
  MechanicalState s = assembly->InitialState();
  try {
    (void)integrator->Step(*assembly, s, 1e-7);
    FAIL("65 spheres accepted by siconos_moreau_jean");
  } catch (const InvalidParameter& err) {
    CHECK(err.parameter() == "nx*ny*nz (number of spheres)");
    CHECK(err.value() == "65");
    CHECK(err.valid_range().rfind("[1, 64]", 0) == 0);
    CHECK(err.valid_range().find("N^4") != std::string::npos);
  }
  const auto o = test::RunImpactlab("run " + std::string(IMPACTLAB_SOURCE_DIR) +
                                    "/validation/scenarios/sphere_assembly.toml --integrator siconos_moreau_jean "
                                    "--set nx=5 --set t_end=1e-6 --quiet");
  CHECK(o.status == 2);
  CHECK(o.out.find("nx*ny*nz (number of spheres) = 80 (valid: [1, 64]") != std::string::npos);
  CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
}

TEST_CASE("siconos_moreau_jean assembly: a pile's unconverged friction-contact solves are counted, run --json stays JSON") {
  // Eight spheres settling in the box: at t = 0.0126 s the bottom layer's stacked frictional contacts take FC3D NSGS
  // beyond its 1e4 sweeps (residual 2.4e-12 > 1e-14, docs/nonsmooth-peers.md). Siconos' own check printed a warning
  // on stdout per such step, which broke --json; the adapter records it instead and the run reports the count and
  // the largest residual, with the rigid books still closed.
  const auto o = test::RunImpactlab("run " + std::string(IMPACTLAB_SOURCE_DIR) +
                                    "/validation/scenarios/sphere_assembly.toml --integrator siconos_moreau_jean "
                                    "--set nx=2 --set ny=2 --set nz=2 --set dt=1e-5 --set t_end=0.0127 --quiet --json");
  REQUIRE(o.status == 0);
  const nlohmann::json j = nlohmann::json::parse(o.out);
  const nlohmann::json& run = j["runs"][0];
  CAPTURE(run.dump());
  CHECK(run["status"] == "ok");
  CHECK(run["nonsmooth_unconverged"].get<long>() >= 1);
  CHECK(run["nonsmooth_unconverged"].get<long>() < run["nonsmooth_problems"].get<long>());
  CHECK(run["nonsmooth_residual_max"].get<double>() > 1e-14);
  CHECK(run["impacts"].get<long>() > 0);
  CHECK(run["energy_balance_residual_max"].get<double>() <= 1e-13);
}
