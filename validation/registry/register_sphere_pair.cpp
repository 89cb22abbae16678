#include <cmath>
#include <numbers>

#include "observe/energy_ledger.h"
#include "registry/sphere_model_registration.h"
#include "registry/sphere_pair_registration.h"
#include "registry/contact_law_registry.h"

namespace impactlab {

SpherePairImpactParameters SpherePairParametersFrom(const ParameterSet& p) {
  SpherePairImpactParameters s;
  ReadDoubles(p, {{"radius1", &s.radius1}, {"radius2", &s.radius2}, {"density1", &s.density1},
                  {"density2", &s.density2}, {"E1", &s.E1}, {"E2", &s.E2}});
  ReadPoissonRatios(p, "nu1", "nu2", s.nu1, s.nu2);
  ReadDoubles(p, {{"v1_n", &s.v1_n}, {"v2_n", &s.v2_n}, {"v1_t", &s.v1_t}, {"v2_t", &s.v2_t}});
  s.omega1 = {p.GetDouble("omega1_x", 0.0), p.GetDouble("omega1_y", 0.0), p.GetDouble("omega1_z", 0.0)};
  s.omega2 = {p.GetDouble("omega2_x", 0.0), p.GetDouble("omega2_y", 0.0), p.GetDouble("omega2_z", 0.0)};
  ReadDoubles(p, {{"e_n", &s.e_n}, {"initial_gap", &s.initial_gap}});
  s.Validate();
  return s;
}

ContactPairData SpherePairData(const SpherePairImpactParameters& sp) {
  return {.effective_modulus = sp.effective_modulus(), .effective_shear_modulus = sp.effective_shear_modulus(),
          .effective_radius = sp.effective_radius(), .effective_mass = sp.reduced_mass(),
          .approach_speed = sp.approach_speed(), .restitution = sp.e_n};
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
  const bool separated = SummarizeSphereContact(sys, record, out);
  auto null = nlohmann::json(nullptr);
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

}  // namespace impactlab
