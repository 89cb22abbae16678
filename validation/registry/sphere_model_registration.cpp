#include "registry/sphere_model_registration.h"

#include <memory>

#include "core/errors.h"
#include "metrics/contact_metrics.h"
#include "registry/contact_law_registry.h"
#include "registry/registries.h"
#include "registry/sphere_pair_registration.h"
#include "registry/sphere_wall_registration.h"

namespace impactlab {

namespace {

constexpr double kExampleFriction = 0.3;  ///< μ of the registered examples (list --matrix)

/// The registry's one-line description of a sphere model: `bodies`, the contact law and the keys (the model's
/// own, then the contact's).
std::string SphereModelSummary(const std::string& bodies, const std::string& keys) {
  return bodies +
         ", any normal law (default Hertz with E*, R*) + damping law (default Tsuji with e_n, m*) + tangential law; "
         "keys: " + keys + ", e_n, mu, normal_law (+ k, p), damping (+ alpha, c, gamma), tangential_law, kt_over_kn, kt, "
         "initial_gap";
}

/// The factory of a sphere model: its parameters from the keys, its contact law from ContactLawFromKeys with the
/// pair's data, and its run summary summarize(model, outcome, out).
template <class Model, class Parameters, class Summarize>
ModelFactory SphereModelFactory(Parameters (*parameters_from)(const ParameterSet&),
                                ContactPairData (*pair_data)(const Parameters&), Summarize summarize) {
  return [=](const ParameterSet& p) {
    const Parameters sp = parameters_from(p);
    auto system = std::make_shared<Model>(sp, ContactLawFromKeys(p, pair_data(sp)));
    return ModelInstance{system, [system, summarize](const RunOutcome& outcome, nlohmann::json& out) {
                           summarize(*system, outcome, out);
                         }};
  };
}

}  // namespace

void ReadDoubles(const ParameterSet& p, std::initializer_list<std::pair<const char*, double*>> fields) {
  for (const auto& [key, field] : fields) *field = p.GetDouble(key, *field);
}

void ReadPoissonRatios(const ParameterSet& p, const std::string& key_a, const std::string& key_b, double& nu_a,
                       double& nu_b) {
  if (p.Has("poisson")) {
    if (p.Has(key_a) || p.Has(key_b))
      throw InvalidParameter("poisson", p.GetDouble("poisson"), "not together with " + key_a + " / " + key_b);
    nu_a = nu_b = p.GetDouble("poisson");
  } else {
    nu_a = p.GetDouble(key_a, nu_a);
    nu_b = p.GetDouble(key_b, nu_b);
  }
}

bool SummarizeSphereContact(const SphereContactModel& sys, const SimulationRecord& record, nlohmann::json& out) {
  const MechanicalState& s1 = record.final_state;
  const ContactMetrics cm = FirstContactMetrics(record.events, 0);
  long starts = 0;
  for (const auto& ev : record.events) starts += ev.kind == ContactEventKind::kStart ? 1 : 0;
  const auto null = nlohmann::json(nullptr);
  out["contacts"] = starts;
  out["contact_duration"] = cm.contact_duration ? nlohmann::json(*cm.contact_duration) : null;
  out["max_overlap"] = cm.max_overlap ? nlohmann::json(*cm.max_overlap) : null;
  // A rigid-contact scheme (Moreau–Jean) may resolve the impact without any located compliant contact (the gap never
  // becomes negative, or only inside one step): then separation is the gap open and opening at the end.
  const bool separated =
      sys.Overlap(s1.q) < 0.0 && (cm.rebounds || (starts == 0 && sys.OverlapRate(s1) < 0.0));
  out["separated"] = separated;
  out["energy_balance_residual_final"] = sys.BalanceResidual(s1);
  out["energy_initial_J"] = sys.initial_energy();
  out["energy_kinetic_trans_J"] = sys.TranslationalKineticEnergy(s1);
  out["energy_kinetic_rot_J"] = sys.RotationalKineticEnergy(s1);
  out["energy_normal_elastic_J"] = sys.NormalElasticEnergy(s1);
  out["energy_tangential_elastic_J"] = sys.TangentialElasticEnergy(s1);
  out["energy_normal_damping_work_J"] = s1.dissipated;
  out["energy_friction_work_J"] = sys.FrictionWork(s1);
  out["energy_generated_work_J"] = sys.GeneratedWork(s1);
  out["energy_total_dissipated_J"] = sys.TotalDissipated(s1);
  return separated;
}

void RegisterSphereModels(Registry<ModelFactory>& r) {
  r.Add("sphere_wall",
        SphereModelSummary("3D sphere with rotation on a flat wall",
                           "radius, density, E_sphere, nu_sphere, E_wall, nu_wall, rigid_wall, poisson, theta_deg, "
                           "speed, omega0, omega0_x, omega0_z"),
        SphereModelFactory<SphereWallImpact>(
            SphereWallParametersFrom, SphereWallPairData,
            [](const SphereWallImpact& system, const RunOutcome& outcome, nlohmann::json& out) {
              SummarizeSphereWall(system, outcome.record, out);
            }),
        // (μ > 0: the integrator × model matrix tries the sphere models with friction, the case they exist for)
        ExampleKeys({{"mu", kExampleFriction}}));
  r.Add("sphere_pair",
        SphereModelSummary("two 3D spheres with rotation",
                           "radius1, radius2, density1, density2, E1, nu1, E2, nu2, poisson, v1_n, v2_n, v1_t, v2_t, "
                           "omega1_x/y/z, omega2_x/y/z"),
        SphereModelFactory<SpherePairImpact>(
            SpherePairParametersFrom, SpherePairData,
            [](const SpherePairImpact& system, const RunOutcome& outcome, nlohmann::json& out) {
              SummarizeSpherePair(system, outcome.record, &outcome.ledger, out);
            }),
        ExampleKeys({{"mu", kExampleFriction}}));
}

}  // namespace impactlab
