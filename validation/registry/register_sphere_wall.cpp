#include <algorithm>
#include <functional>
#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "metrics/contact_metrics.h"
#include "references/rigid_sphere_impact_theory.h"
#include "registry/contact_law_registry.h"
#include "registry/sphere_wall_registration.h"

namespace impactlab {

SphereWallImpactParameters SphereWallParametersFrom(const ParameterSet& p) {
  SphereWallImpactParameters s;
  s.radius = p.GetDouble("radius", s.radius);
  s.density = p.GetDouble("density", s.density);
  s.E_sphere = p.GetDouble("E_sphere", s.E_sphere);
  s.E_wall = p.GetDouble("E_wall", s.E_wall);
  s.rigid_wall = p.GetBool("rigid_wall", s.rigid_wall);
  if (p.Has("poisson")) {
    if (p.Has("nu_sphere") || p.Has("nu_wall"))
      throw InvalidParameter("poisson", p.GetDouble("poisson"), "not together with nu_sphere / nu_wall");
    s.nu_sphere = s.nu_wall = p.GetDouble("poisson");
  } else {
    s.nu_sphere = p.GetDouble("nu_sphere", s.nu_sphere);
    s.nu_wall = p.GetDouble("nu_wall", s.nu_wall);
  }
  s.theta_deg = p.GetDouble("theta_deg", s.theta_deg);
  s.speed = p.GetDouble("speed", s.speed);
  s.omega0 = p.GetDouble("omega0", s.omega0);
  s.omega0_x = p.GetDouble("omega0_x", s.omega0_x);
  s.omega0_z = p.GetDouble("omega0_z", s.omega0_z);
  s.e_n = p.GetDouble("e_n", s.e_n);
  s.initial_gap = p.GetDouble("initial_gap", s.initial_gap);
  s.Validate();
  return s;
}

ContactPairData SphereWallPairData(const SphereWallImpactParameters& sp) {
  ContactPairData d;
  d.effective_modulus = sp.effective_modulus();
  d.effective_shear_modulus = sp.effective_shear_modulus();
  d.effective_radius = sp.radius;
  d.effective_mass = sp.mass();
  d.approach_speed = sp.normal_speed();
  d.restitution = sp.e_n;
  return d;
}

std::shared_ptr<const TangentialLaw> TangentialLawFrom(const ParameterSet& p, const SphereWallImpactParameters& sp) {
  return TangentialLawFromKeys(p, SphereWallPairData(sp));
}

void SummarizeSphereWall(const SphereWallImpact& sys, const SimulationRecord& record, nlohmann::json& out) {
  const SphereWallImpactParameters& sp = sys.parameters();
  const MechanicalState s0 = sys.InitialState();
  const MechanicalState& s1 = record.final_state;
  const ContactMetrics cm = FirstContactMetrics(record.events, 0);
  long starts = 0;
  for (const auto& ev : record.events) starts += ev.kind == ContactEventKind::kStart ? 1 : 0;
  out["contacts"] = starts;
  out["contact_duration"] = cm.contact_duration ? nlohmann::json(*cm.contact_duration) : nlohmann::json(nullptr);
  out["max_overlap"] = cm.max_overlap ? nlohmann::json(*cm.max_overlap) : nlohmann::json(nullptr);
  const bool separated = cm.rebounds && sp.radius - s1.q[2] < 0.0;
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

void RegisterSphereWallModel(Registry<ModelFactory>& r) {
  r.Add("sphere_wall",
        "3D sphere with rotation on a flat wall, any normal law (default Hertz) + damping law (default Tsuji, e_n) "
        "+ tangential law; keys: radius, density, E_sphere, nu_sphere, E_wall, nu_wall, rigid_wall, poisson, "
        "theta_deg, speed, omega0, omega0_x, omega0_z, mu, e_n, normal_law (+ k, p), damping (+ alpha, c, gamma), "
        "tangential_law, kt_over_kn, kt, initial_gap",
        [](const ParameterSet& p) {
          const SphereWallImpactParameters sp = SphereWallParametersFrom(p);
          auto system = std::make_shared<SphereWallImpact>(sp, ContactLawFromKeys(p, SphereWallPairData(sp)));
          ModelInstance mi;
          mi.system = system;
          mi.summarize = [system](const RunOutcome& outcome, nlohmann::json& out) {
            SummarizeSphereWall(*system, outcome.record, out);
          };
          return mi;
        });
}

}  // namespace impactlab
