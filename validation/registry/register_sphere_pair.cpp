#include <cmath>
#include <numbers>

#include "metrics/contact_metrics.h"
#include "observe/energy_ledger.h"
#include "registry/sphere_pair_registration.h"
#include "registry/contact_law_registry.h"

namespace impactlab {

SpherePairImpactParameters SpherePairParametersFrom(const ParameterSet& p) {
  SpherePairImpactParameters s;
  s.radius1 = p.GetDouble("radius1", s.radius1);
  s.radius2 = p.GetDouble("radius2", s.radius2);
  s.density1 = p.GetDouble("density1", s.density1);
  s.density2 = p.GetDouble("density2", s.density2);
  s.E1 = p.GetDouble("E1", s.E1);
  s.E2 = p.GetDouble("E2", s.E2);
  if (p.Has("poisson")) {
    if (p.Has("nu1") || p.Has("nu2"))
      throw InvalidParameter("poisson", p.GetDouble("poisson"), "not together with nu1 / nu2");
    s.nu1 = s.nu2 = p.GetDouble("poisson");
  } else {
    s.nu1 = p.GetDouble("nu1", s.nu1);
    s.nu2 = p.GetDouble("nu2", s.nu2);
  }
  s.v1_n = p.GetDouble("v1_n", s.v1_n);
  s.v2_n = p.GetDouble("v2_n", s.v2_n);
  s.v1_t = p.GetDouble("v1_t", s.v1_t);
  s.v2_t = p.GetDouble("v2_t", s.v2_t);
  s.omega1 = {p.GetDouble("omega1_x", 0.0), p.GetDouble("omega1_y", 0.0), p.GetDouble("omega1_z", 0.0)};
  s.omega2 = {p.GetDouble("omega2_x", 0.0), p.GetDouble("omega2_y", 0.0), p.GetDouble("omega2_z", 0.0)};
  s.e_n = p.GetDouble("e_n", s.e_n);
  s.initial_gap = p.GetDouble("initial_gap", s.initial_gap);
  s.Validate();
  return s;
}

ContactPairData SpherePairData(const SpherePairImpactParameters& sp) {
  ContactPairData d;
  d.effective_modulus = sp.effective_modulus();
  d.effective_shear_modulus = sp.effective_shear_modulus();
  d.effective_radius = sp.effective_radius();
  d.effective_mass = sp.reduced_mass();
  d.approach_speed = sp.approach_speed();
  d.restitution = sp.e_n;
  return d;
}

std::shared_ptr<const TangentialLaw> SpherePairTangentialLawFrom(const ParameterSet& p,
                                                                 const SpherePairImpactParameters& sp) {
  return TangentialLawFromKeys(p, SpherePairData(sp));
}

void SummarizeSpherePair(const SpherePairImpact& sys, const SimulationRecord& record, const EnergyLedger* ledger,
                         nlohmann::json& out) {
  using K = SpherePairImpact;
  const MechanicalState s0 = sys.InitialState();
  const MechanicalState& s1 = record.final_state;
  const ContactMetrics cm = FirstContactMetrics(record.events, 0);
  long starts = 0;
  for (const auto& ev : record.events) starts += ev.kind == ContactEventKind::kStart ? 1 : 0;
  auto null = nlohmann::json(nullptr);
  out["contacts"] = starts;
  out["contact_duration"] = cm.contact_duration ? nlohmann::json(*cm.contact_duration) : null;
  out["max_overlap"] = cm.max_overlap ? nlohmann::json(*cm.max_overlap) : null;
  const bool separated = cm.rebounds && sys.Overlap(s1.q) < 0.0;
  out["separated"] = separated;
  out["energy_balance_residual_final"] = sys.BalanceResidual(s1);  // signed, relative to E0 (maxima: the ledger's)
  out["energy_initial_J"] = sys.initial_energy();
  out["energy_kinetic_trans_J"] = sys.TranslationalKineticEnergy(s1);
  out["energy_kinetic_rot_J"] = sys.RotationalKineticEnergy(s1);
  out["energy_normal_elastic_J"] = sys.NormalElasticEnergy(s1);
  out["energy_tangential_elastic_J"] = sys.TangentialElasticEnergy(s1);
  out["energy_normal_damping_work_J"] = s1.dissipated;
  out["energy_friction_work_J"] = sys.FrictionWork(s1);
  out["energy_generated_work_J"] = sys.GeneratedWork(s1);
  out["energy_total_dissipated_J"] = sys.TotalDissipated(s1);
  if (ledger) {
    const auto lp = ledger->linear_momentum_drift_max(), la = ledger->angular_momentum_drift_max();
    out["linear_momentum_drift_max"] = lp ? nlohmann::json(*lp) : null;
    out["angular_momentum_drift_max"] = la ? nlohmann::json(*la) : null;
  }
  out["slip_velocity_before"] = sys.SlipVelocity(s0)[0];
  const auto vec = [](const Eigen::Vector3d& w) { return nlohmann::json::array({w[0], w[1], w[2]}); };
  if (!separated) {
    for (const char* k : {"e_n", "omega1_after", "omega2_after", "omega1_y_after", "omega2_y_after", "v1_t_after",
                          "v2_t_after", "slip_velocity_after"})
      out[k] = null;
    return;
  }
  const double vn0 = (s0.v.segment<3>(K::kX2) - s0.v.segment<3>(K::kX1)).dot(sys.Normal(s0.q));
  const double vn1 = (s1.v.segment<3>(K::kX2) - s1.v.segment<3>(K::kX1)).dot(sys.Normal(s1.q));
  out["e_n"] = -vn1 / vn0;
  out["restitution"] = -vn1 / vn0;
  out["omega1_after"] = vec(s1.v.segment<3>(K::kPhi1));
  out["omega2_after"] = vec(s1.v.segment<3>(K::kPhi2));
  out["omega1_y_after"] = s1.v[K::kPhi1 + 1];
  out["omega2_y_after"] = s1.v[K::kPhi2 + 1];
  out["v1_t_after"] = s1.v[K::kX1];
  out["v2_t_after"] = s1.v[K::kX2];
  out["slip_velocity_after"] = sys.SlipVelocity(s1)[0];
}

void RegisterSpherePairModel(Registry<ModelFactory>& r) {
  r.Add("sphere_pair",
        "two 3D spheres with rotation, any normal law (default Hertz with E*, R*) + damping law (default Tsuji, "
        "e_n, m*) + tangential law; keys: radius1, radius2, density1, density2, E1, nu1, E2, nu2, poisson, v1_n, "
        "v2_n, v1_t, v2_t, omega1_x/y/z, omega2_x/y/z, e_n, mu, normal_law (+ k, p), damping (+ alpha, c, gamma), "
        "tangential_law, kt_over_kn, kt, initial_gap",
        [](const ParameterSet& p) {
          const SpherePairImpactParameters sp = SpherePairParametersFrom(p);
          auto system = std::make_shared<SpherePairImpact>(sp, ContactLawFromKeys(p, SpherePairData(sp)));
          ModelInstance mi;
          mi.system = system;
          mi.summarize = [system](const RunOutcome& outcome, nlohmann::json& out) {
            SummarizeSpherePair(*system, outcome.record, &outcome.ledger, out);
          };
          return mi;
        });
}

}  // namespace impactlab
