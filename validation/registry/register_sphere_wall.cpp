#include <algorithm>
#include <functional>
#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "contact/tangential/cundall_strack.h"
#include "contact/tangential/mindlin_deresiewicz.h"
#include "contact/tangential/mindlin_incremental.h"
#include "contact/tangential/mindlin_integral.h"
#include "contact/tangential/mindlin_rescaled_incremental.h"
#include "contact/tangential/mindlin_scaled_integral.h"
#include "metrics/contact_metrics.h"
#include "references/rigid_sphere_impact_theory.h"
#include "registry/sphere_wall_registration.h"

namespace impactlab {

namespace {

using TangentialLawFactory =
    std::function<std::shared_ptr<const TangentialLaw>(const ParameterSet&, const SphereWallImpactParameters&, double)>;

// Mindlin's no-slip stiffness k_t = 8 G* √(R δ_n) of the sphere–wall pair.
MindlinStiffness StiffnessOf(const SphereWallImpactParameters& sp) {
  return MindlinStiffness{sp.effective_shear_modulus(), sp.radius};
}

const Registry<TangentialLawFactory>& TangentialLawRegistry() {
  static const Registry<TangentialLawFactory> r = [] {
    Registry<TangentialLawFactory> reg("tangential_law");
    reg.Add("cundall_strack", "linear spring + Coulomb slider (keys: kt, or kt_over_kn)",
            [](const ParameterSet& p, const SphereWallImpactParameters& sp, double mu) -> std::shared_ptr<const TangentialLaw> {
              if (p.Has("kt")) return std::make_shared<CundallStrackLaw>(p.GetDouble("kt"), mu);
              // Reference normal stiffness: Hertz tangent stiffness 3/2 K_H √δ_max at the undamped peak overlap
              // δ_max = (15 m v_n² / (16 E* √R))^{2/5}.
              const double ratio = RequirePositive("kt_over_kn", p.GetDouble("kt_over_kn", 2.0 / 7.0));
              const double vn = sp.normal_speed();
              const double delta_max = std::pow(
                  15.0 * sp.mass() * vn * vn / (16.0 * sp.effective_modulus() * std::sqrt(sp.radius)), 0.4);
              return std::make_shared<CundallStrackLaw>(ratio * 1.5 * sp.hertz_coefficient() * std::sqrt(delta_max), mu);
            });
    reg.Add("mindlin_deresiewicz", "Thornton-Randall incremental micro-slip (Seed002 eqs. 2-4, 2 mu F_n)",
            [](const ParameterSet&, const SphereWallImpactParameters& sp, double mu) {
              return std::make_shared<MindlinDeresiewiczLaw>(StiffnessOf(sp), mu);
            });
    reg.Add("mindlin_incremental", "Oda-Iwashita incremental no-slip (Seed002 eqs. 14-15)",
            [](const ParameterSet&, const SphereWallImpactParameters& sp, double mu) {
              return std::make_shared<MindlinIncrementalLaw>(StiffnessOf(sp), mu);
            });
    reg.Add("mindlin_integral", "Tsuji 1992 integral no-slip (Seed002 eqs. 16-19)",
            [](const ParameterSet&, const SphereWallImpactParameters& sp, double mu) {
              return std::make_shared<MindlinIntegralLaw>(StiffnessOf(sp), mu);
            });
    reg.Add("mindlin_rescaled_incremental", "Thornton 2013 rescaled incremental (Seed002 eqs. 8-11)",
            [](const ParameterSet&, const SphereWallImpactParameters& sp, double mu) {
              return std::make_shared<MindlinRescaledIncrementalLaw>(StiffnessOf(sp), mu);
            });
    reg.Add("mindlin_scaled_integral", "Di Maio-Di Renzo scaled integral, 2/3 k_t (Seed002 3.2.2)",
            [](const ParameterSet&, const SphereWallImpactParameters& sp, double mu) {
              return std::make_shared<MindlinScaledIntegralLaw>(StiffnessOf(sp), mu);
            });
    return reg;
  }();
  return r;
}

}  // namespace

std::vector<std::string> TangentialLawNames() { return TangentialLawRegistry().names(); }

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

std::shared_ptr<const TangentialLaw> TangentialLawFrom(const ParameterSet& p, const SphereWallImpactParameters& sp) {
  const std::string name = p.GetString("tangential_law", "mindlin_rescaled_incremental");
  const double mu = RequireNonNegative("mu", p.GetDouble("mu", 0.0));
  return TangentialLawRegistry().Get(name).make(p, sp, mu);
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
  const double scale = std::abs(sys.initial_energy()) > 0.0 ? std::abs(sys.initial_energy()) : 1.0;
  const double r_final = sys.BalanceResidual(s1);  // signed, relative to E0
  out["energy_balance_residual_max"] = std::max(s1.z[SphereWallImpact::kResidualMax], std::abs(r_final));
  out["energy_balance_residual_final"] = r_final;
  out["integration_residual_max"] =
      std::max(s1.z[SphereWallImpact::kIntegrationResidualMax], std::abs(r_final - sys.GeneratedWork(s1) / scale));
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
        "3D sphere with rotation on a flat wall, Hertz + Tsuji damping (e_n) + tangential law; keys: radius, "
        "density, E_sphere, nu_sphere, E_wall, nu_wall, rigid_wall, poisson, theta_deg, speed, omega0, omega0_x, "
        "omega0_z, mu, e_n, "
        "tangential_law, kt_over_kn, kt, initial_gap",
        [](const ParameterSet& p) {
          const SphereWallImpactParameters sp = SphereWallParametersFrom(p);
          auto system = std::make_shared<SphereWallImpact>(sp, TangentialLawFrom(p, sp));
          ModelInstance mi;
          mi.system = system;
          mi.summarize = [system](const RunOutcome& outcome, nlohmann::json& out) {
            SummarizeSphereWall(*system, outcome.record, out);
          };
          return mi;
        });
}

}  // namespace impactlab
