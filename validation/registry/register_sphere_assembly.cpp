// Registration of the "sphere_assembly" model (models/sphere_assembly.h): nx × ny × nz frictional spheres on a
// jittered simple cubic lattice in a box (floor and four side walls) settling under gravity.
// Keys (SI): nx, ny, nz, radius, density, E, poisson, E_wall, nu_wall, e_n, gravity, gap, jitter, random_speed,
// seed, history_slots, approach_speed, and the contact law's keys (mu, normal_law, damping, tangential_law and
// theirs) through ContactLawFromKeys: one law for sphere–sphere contacts (E*, G*, R* = R/2, m* = m/2) and one for
// sphere–wall contacts (E*, G* with the wall's material, R* = R, m* = m).
#include <cmath>
#include <string>

#include "core/checks.h"
#include "core/errors.h"
#include "models/sphere_assembly.h"
#include "registry/contact_law_registry.h"
#include "registry/registries.h"
#include "registry/sphere_assembly_registration.h"

namespace impactlab {

namespace {

int IntegerKey(const ParameterSet& p, const char* key, int fallback, int lower, int upper) {
  const double x = p.GetDouble(key, fallback);
  if (!(x >= lower && x <= upper && std::floor(x) == x))
    throw InvalidParameter(key, x, "an integer in [" + std::to_string(lower) + ", " + std::to_string(upper) + "]");
  return static_cast<int>(x);
}

}  // namespace

SphereAssemblyParameters SphereAssemblyParametersFrom(const ParameterSet& p) {
  SphereAssemblyParameters a;
  a.nx = IntegerKey(p, "nx", a.nx, 1, 1000);
  a.ny = IntegerKey(p, "ny", a.ny, 1, 1000);
  a.nz = IntegerKey(p, "nz", a.nz, 1, 1000);
  a.radius = p.GetDouble("radius", a.radius);
  a.density = p.GetDouble("density", a.density);
  a.E = p.GetDouble("E", a.E);
  a.poisson = p.GetDouble("poisson", a.poisson);
  a.E_wall = p.GetDouble("E_wall", a.E);
  a.nu_wall = p.GetDouble("nu_wall", a.poisson);
  a.e_n = p.GetDouble("e_n", a.e_n);
  a.gravity = p.GetDouble("gravity", a.gravity);
  a.gap = p.GetDouble("gap", 0.1 * a.radius);
  a.jitter = p.GetDouble("jitter", a.jitter);
  a.random_speed = p.GetDouble("random_speed", a.random_speed);
  const double seed = p.GetDouble("seed", 1.0);
  if (!(seed >= 0 && seed < 9e15 && std::floor(seed) == seed)) throw InvalidParameter("seed", seed, "an integer >= 0");
  a.seed = static_cast<std::uint64_t>(seed);
  a.history_slots = IntegerKey(p, "history_slots", a.history_slots, 1, 64);
  if (static_cast<long>(a.nx) * a.ny * a.nz > 2000000)
    throw InvalidParameter("nx*ny*nz", static_cast<double>(static_cast<long>(a.nx) * a.ny * a.nz), "<= 2e6 spheres");
  a.Validate();
  return a;
}

std::shared_ptr<SphereAssembly> MakeSphereAssembly(const ParameterSet& p) {
  const SphereAssemblyParameters a = SphereAssemblyParametersFrom(p);
  // Reference approach speed (used by laws with a reference overlap, e.g. cundall_strack's default kt): the
  // free-fall speed over the packing height, plus the random speed.
  const double height = a.nz * a.spacing();
  const double fall = std::sqrt(2.0 * a.gravity * height) + 2.0 * std::sqrt(3.0) * a.random_speed;
  const double speed = RequirePositive("approach_speed", p.GetDouble("approach_speed", fall > 0.0 ? fall : 1.0));
  const double m = a.mass();
  const ContactPairData pair{.effective_modulus = a.pair_effective_modulus(),
                             .effective_shear_modulus = a.pair_effective_shear_modulus(),
                             .effective_radius = 0.5 * a.radius,
                             .effective_mass = 0.5 * m,
                             .approach_speed = speed,
                             .restitution = a.e_n};
  const ContactPairData wall{.effective_modulus = a.wall_effective_modulus(),
                             .effective_shear_modulus = a.wall_effective_shear_modulus(),
                             .effective_radius = a.radius,
                             .effective_mass = m,
                             .approach_speed = speed,
                             .restitution = a.e_n};
  return std::make_shared<SphereAssembly>(a.Configuration(), ContactLawFromKeys(p, pair), ContactLawFromKeys(p, wall));
}

void SummarizeSphereAssembly(const SphereAssembly& sys, const SimulationRecord& record, nlohmann::json& out) {
  const MechanicalState& s = record.final_state;
  const std::pair<long, long> contacts = sys.CountContacts(s);
  const EnergyTerms e = sys.EnergyBooks(s);
  double z_mean = 0.0;
  for (int i = 0; i < sys.num_spheres(); ++i) z_mean += s.q[6 * i + 2];
  z_mean /= sys.num_spheres();
  out["num_spheres"] = sys.num_spheres();
  out["sphere_contacts"] = contacts.first;
  out["wall_contacts"] = contacts.second;
  out["coordination_number"] = 2.0 * static_cast<double>(contacts.first) / sys.num_spheres();
  out["history_slots_used"] = sys.OccupiedSlots(s);
  out["max_overlap_over_radius"] = sys.MaxOverlap(s) / sys.configuration().radius;
  out["mean_height_m"] = z_mean;
  out["energy_balance_residual_final"] = sys.BalanceResidual(s);
  out["energy_initial_J"] = sys.initial_energy();
  out["energy_kinetic_J"] = e.kinetic;
  out["energy_gravity_J"] = e.stored[0].second;
  out["energy_normal_elastic_J"] = e.stored[1].second;
  out["energy_tangential_elastic_J"] = e.stored[2].second;
  out["energy_normal_damping_work_J"] = s.dissipated;
  out["energy_friction_work_J"] = e.friction_work;
  out["energy_generated_work_J"] = e.generated_work;
}

void RegisterSphereAssemblyModel(Registry<ModelFactory>& r) {
  r.Add("sphere_assembly",
        "3D frictional spheres (rotation) on a jittered cubic lattice settling under gravity in a box (floor + 4 "
        "walls), cell-list contacts, any normal law (default Hertz) + damping (default Tsuji with e_n) + tangential "
        "law; keys: nx, ny, nz, radius, density, E, poisson, E_wall, nu_wall, e_n, gravity, gap, jitter, "
        "random_speed, seed, history_slots, approach_speed, mu, normal_law, damping, tangential_law",
        [](const ParameterSet& p) {
          auto system = MakeSphereAssembly(p);
          return ModelInstance{system, [system](const RunOutcome& outcome, nlohmann::json& out) {
                                 SummarizeSphereAssembly(*system, outcome.record, out);
                               }};
        },
        ExampleKeys({{"nx", 2.0}, {"ny", 2.0}, {"nz", 2.0}, {"mu", 0.3}}));
}

}  // namespace impactlab
