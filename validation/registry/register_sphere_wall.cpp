#include <algorithm>
#include <functional>
#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "references/rigid_sphere_impact_theory.h"
#include "registry/contact_law_registry.h"
#include "registry/sphere_model_registration.h"
#include "registry/sphere_wall_registration.h"

namespace impactlab {

SphereWallImpactParameters SphereWallParametersFrom(const ParameterSet& p) {
  SphereWallImpactParameters s;
  ReadDoubles(p, {{"radius", &s.radius}, {"density", &s.density}, {"E_sphere", &s.E_sphere}, {"E_wall", &s.E_wall}});
  s.rigid_wall = p.GetBool("rigid_wall", s.rigid_wall);
  ReadPoissonRatios(p, "nu_sphere", "nu_wall", s.nu_sphere, s.nu_wall);
  ReadDoubles(p, {{"theta_deg", &s.theta_deg}, {"speed", &s.speed}, {"omega0", &s.omega0}, {"omega0_x", &s.omega0_x},
                  {"omega0_z", &s.omega0_z}, {"e_n", &s.e_n}, {"initial_gap", &s.initial_gap}});
  s.Validate();
  return s;
}

ContactPairData SphereWallPairData(const SphereWallImpactParameters& sp) {
  return {.effective_modulus = sp.effective_modulus(), .effective_shear_modulus = sp.effective_shear_modulus(),
          .effective_radius = sp.radius, .effective_mass = sp.mass(), .approach_speed = sp.normal_speed(),
          .restitution = sp.e_n};
}

std::shared_ptr<const TangentialLaw> TangentialLawFrom(const ParameterSet& p, const SphereWallImpactParameters& sp) {
  return TangentialLawFromKeys(p, SphereWallPairData(sp));
}

void SummarizeSphereWall(const SphereWallImpact& sys, const SimulationRecord& record, nlohmann::json& out) {
  const SphereWallImpactParameters& sp = sys.parameters();
  const MechanicalState s0 = sys.InitialState();
  const MechanicalState& s1 = record.final_state;
  const bool separated = SummarizeSphereContact(sys, record, out);
  const double vn0 = -s0.v[2], vt0 = s0.v[0];
  const double vs0 = sys.SlipVelocity(s0)[0];
  auto null = nlohmann::json(nullptr);
  if (!separated) {
    for (const char* k : {"e_n", "e_t", "beta", "omega_after", "omega_after_abs", "psi", "kinetic_energy_ratio",
                          "tangential_kinetic_energy_ratio",
                          "rebound_angle_deg", "psi_rigid_beta", "psi_rigid_e_t"})
      out[k] = null;
    return;
  }
  const double e_n = s1.v[2] / vn0;
  out["e_n"] = e_n;
  out["restitution"] = e_n;
  out["e_t"] = vt0 != 0.0 ? nlohmann::json(s1.v[0] / vt0) : null;
  const double vs1 = sys.SlipVelocity(s1)[0];
  out["beta"] = vs0 != 0.0 ? nlohmann::json(-vs1 / vs0) : null;
  out["omega_after"] = s1.v[4];
  out["omega_after_abs"] = s1.v.segment<3>(3).norm();
  out["kinetic_energy_ratio"] = sys.KineticEnergy(s1) / sys.KineticEnergy(s0);
  // Seed002 §3.2.4's "kinetic energy of the slip": ½ m v_t² + ½ I ω², after / before.
  const auto slip_ke = [&sys](const MechanicalState& s) {
    return sys.KineticEnergy(s) - 0.5 * sys.parameters().mass() * s.v[2] * s.v[2];
  };
  out["tangential_kinetic_energy_ratio"] = slip_ke(s0) > 0.0 ? nlohmann::json(slip_ke(s1) / slip_ke(s0)) : null;
  out["rebound_angle_deg"] = std::atan2(std::abs(s1.v[0]), s1.v[2]) * 180.0 / std::numbers::pi;
  // Seed002's abscissa ψ = 7/2 (1 + e_n) μ |cot γ| with the measured e_n, and rigid theory at that ψ.
  const double mu = sys.law().friction_coefficient();
  if (vt0 != 0.0) {
    const double psi = 3.5 * (1.0 + e_n) * mu * vn0 / std::abs(vt0);
    out["psi"] = psi;
    RigidSphereImpactInput in;
    in.normal_speed = vn0;
    in.tangential_velocity = vt0;
    in.omega_y = s0.v[4];
    in.radius = sp.radius;
    in.mu = mu;
    in.e_n = std::clamp(e_n, 0.0, 1.0);
    const RigidSphereImpactResult rigid = RigidSphereImpact(in);
    out["psi_rigid_beta"] = rigid.beta;
    out["psi_rigid_e_t"] = rigid.e_t ? nlohmann::json(*rigid.e_t) : null;
  } else {
    out["psi"] = null;
    out["psi_rigid_beta"] = null;
    out["psi_rigid_e_t"] = null;
  }
}

}  // namespace impactlab
