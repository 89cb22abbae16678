// Registration of models "ellipsoid_wall" (planar, models/ellipsoid_wall_impact.h) and "ellipsoid_wall_3d"
// (models/ellipsoid_wall_impact_3d.h) and their run summaries.
// Summary keys, all measured at the FIRST contact / FIRST separation (docs/theory.md §12.4):
//   m_n_star_initial   eq. 14 at first touch [kg];     kappa_initial  eq. 11 at first touch
//   e_cn               −v_cn(exit)/v_cn(entry)  (eq. 38)
//   e_E                √(K(exit)/K(entry))      (eq. 45);   coupling_offset = e_E − e_cn (eq. 46)
//   e_E_impulsive      rigid-impact prediction (eqs. 39–45) from the state at first touch
//   v_z_impulsive, omega_y_impulsive   rigid post-impact velocities
//   delta_max, delta_max_over_rho      ρ = ρ_G = abc/h² at first touch (docs/theory.md §2.1, §11.2)
//   v_x_after, v_z_after, omega_y_after, contact_duration, m_n_star_exit, second_contact
#include <cmath>
#include <numbers>

#include "dynamics/contact_mass.h"
#include "dynamics/impulsive_restitution.h"
#include "metrics/contact_metrics.h"
#include "models/ellipsoid_wall_impact.h"
#include "models/ellipsoid_wall_impact_3d.h"
#include "core/checks.h"
#include "registry/contact_law_registry.h"
#include "registry/registries.h"

namespace impactlab {

namespace {

// The tangential law of keys tangential_law, mu and the law's stiffness keys bound to the 3-D ellipsoid's contact
// (models/ellipsoid_wall_friction.h), or null (frictionless, Seed000) without tangential_law. One law per contact for
// R* = ρ_G at first touch: the Mindlin laws k_t = 8 G* √(R* δ) with key G_star [Pa] (required: the ECC model has no
// material modulus); cundall_strack with kt [N/m] or kt_over_kn (default 2/7, as the sphere models) times the ECC
// stiffness at first touch, k_eff = 2π K_n R* (geometry/ellipsoid_plane_contact.h). With mu = 0 the caller drops the
// law: the frictionless model exactly.
std::shared_ptr<const EllipsoidWallFriction> EllipsoidFrictionFromKeys(const ParameterSet& p, double K_n,
                                                                      double reference_radius) {
  if (!p.Has("tangential_law")) {
    if (p.Has("mu"))
      throw InvalidParameter("mu", p.GetDouble("mu"),
                             "only with a tangential_law on model \"ellipsoid_wall_3d\" (one of: " +
                                 [] {
                                   std::string names;
                                   for (const auto& n : TangentialLawNames()) names += (names.empty() ? "" : ", ") + n;
                                   return names;
                                 }() +
                                 ")");
    return nullptr;
  }
  const std::string name = p.GetString("tangential_law");
  const TangentialLawFactory factory = TangentialLawRegistry().Get(name).make;  // unknown name: the list of laws
  const double mu = RequireNonNegative("mu", p.GetDouble("mu", 0.0));
  ParameterSet keys;
  ContactPairData pair;
  pair.restitution = 1.0;
  if (name == "cundall_strack") {
    if (p.Has("kt")) {
      if (p.Has("kt_over_kn"))
        throw InvalidParameter("kt_over_kn", p.GetDouble("kt_over_kn"), "either kt or kt_over_kn, not both");
      keys.Set("kt", RequirePositive("kt", p.GetDouble("kt")));
      const std::shared_ptr<const TangentialLaw> law = factory(keys, pair, mu);
      return std::make_shared<EllipsoidWallFriction>(name, [law](double) { return law; }, reference_radius);
    }
    const double ratio = RequirePositive("kt_over_kn", p.GetDouble("kt_over_kn", 2.0 / 7.0));
    return std::make_shared<EllipsoidWallFriction>(
        name,
        [factory, ratio, K_n, pair, mu](double radius) {
          ParameterSet k;
          k.Set("kt", ratio * 2.0 * std::numbers::pi * K_n * radius);  // k_eff(t = 0) = 2π K_n ρ_G
          return factory(k, pair, mu);
        },
        reference_radius);
  }
  RejectInapplicableLaw(p, "kt", "ellipsoid_wall_3d", "tangential_law = " + name + " sets k_t = 8 G* sqrt(R* delta) (key G_star)");
  RejectInapplicableLaw(p, "kt_over_kn", "ellipsoid_wall_3d", "tangential_law = " + name + " sets k_t = 8 G* sqrt(R* delta) (key G_star)");
  return std::make_shared<EllipsoidWallFriction>(name, MindlinLawForRadius(p, name, mu, "ellipsoid_wall_3d", "ECC"),
                                                 reference_radius);
}

void SummarizeEllipsoidWall(const EllipsoidWallImpact& model, const RunOutcome& outcome, nlohmann::json& out) {
  const auto& events = outcome.record.events;
  const ContactEvent* start = nullptr;
  const ContactEvent* end = nullptr;
  int starts = 0;
  for (const auto& ev : events) {
    if (ev.kind == ContactEventKind::kStart) {
      ++starts;
      if (!start) start = &ev;
    }
    if (start && !end && ev.kind == ContactEventKind::kEnd) end = &ev;
  }
  const ContactMetrics m = FirstContactMetrics(events, 0);
  const auto& p = model.parameters();
  const MechanicalState s0 = start ? start->state : model.InitialState();
  const auto c0 = model.ContactAt(s0.q);
  out["m_n_star_initial"] = model.InitialProjectedMass(s0.q[2]);
  // World inertia R I_body Rᵀ of the solid ellipsoid; in planar motion only I_yy = m(a² + c²)/5 enters
  // (ω = ω_y e_y and r × n ∥ e_y), the full tensor is used so that the 3D formulas are exercised as they are.
  const Eigen::Vector3d ax2 = p.shape.semi_axes.cwiseAbs2();
  const Eigen::Vector3d body_inertia =
      p.mass / 5.0 * Eigen::Vector3d(ax2[1] + ax2[2], ax2[0] + ax2[2], ax2[0] + ax2[1]);
  const Eigen::Matrix3d rot = AxisAngleRotation(Eigen::Vector3d::UnitY(), s0.q[2]);
  const Eigen::Matrix3d inertia = rot * body_inertia.asDiagonal() * rot.transpose();
  const Eigen::Vector3d lever(c0.geometry.support_point.x() - s0.q[0], 0.0, c0.geometry.support_point.z() - s0.q[1]);
  const Eigen::Matrix3d w = InverseEffectiveMassBodyWall({p.mass, inertia, lever});
  out["kappa_initial"] = CouplingIndex(w, Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX());
  const double rho = c0.geometry.gaussian_radius;
  out["rho_G_initial"] = rho;
  out["omega_max_initial"] =
      CriticalContactFrequency(EccEffectiveStiffness(p.K_n, p.shape.semi_axes.prod(), c0.geometry.h, 0.0),
                               model.InitialProjectedMass(s0.q[2]));
  ImpulsiveImpactInput in;
  in.mass = p.mass;
  in.inertia = inertia;
  in.lever = lever;
  in.velocity = Eigen::Vector3d(s0.v[0], 0.0, s0.v[1]);
  in.angular_velocity = Eigen::Vector3d(0.0, s0.v[2], 0.0);
  in.e_cn = p.e_cn;
  auto null = nlohmann::json(nullptr);
  try {
    const auto imp = SolveImpulsiveWallImpact(in);
    out["e_E_impulsive"] = imp.e_E;
    out["v_z_impulsive"] = imp.velocity.z();
    out["omega_y_impulsive"] = imp.angular_velocity.y();
  } catch (const InvalidParameter&) {
    out["e_E_impulsive"] = out["v_z_impulsive"] = out["omega_y_impulsive"] = null;
  }
  out["delta_max"] = m.max_overlap ? nlohmann::json(*m.max_overlap) : null;
  out["delta_max_over_rho"] = m.max_overlap ? nlohmann::json(*m.max_overlap / rho) : null;
  out["second_contact"] = starts > 1;
  if (start && end) {
    const double vcn_in = model.ContactNormalVelocity(start->state);
    const double vcn_out = model.ContactNormalVelocity(end->state);
    out["v_cn_entry"] = vcn_in;
    out["v_cn_exit"] = vcn_out;
    out["e_cn"] = -vcn_out / vcn_in;
    out["e_cn_target"] = p.e_cn;
    out["e_E"] = std::sqrt(model.KineticEnergy(end->state) / model.KineticEnergy(start->state));
    out["coupling_offset"] = out["e_E"].get<double>() - out["e_cn"].get<double>();  // Δe, eq. 46
    out["v_x_after"] = end->state.v[0];
    out["v_z_after"] = end->state.v[1];
    out["omega_y_after"] = end->state.v[2];
    out["m_n_star_exit"] = model.ContactAt(end->state.q).m_n_star;
    out["contact_duration"] = end->t - start->t;
    out["restitution"] = -vcn_out / vcn_in;
  } else {
    for (const char* k : {"v_cn_entry", "v_cn_exit", "e_cn", "e_E", "coupling_offset", "v_x_after", "v_z_after", "omega_y_after",
                          "m_n_star_exit", "contact_duration", "restitution"})
      out[k] = null;
  }
  out["rebounds"] = end != nullptr;
  out["max_overlap"] = out["delta_max"];
}

// Same keys for the 3D model, vectors as *_x/_y/_z; omega_after_* is the world-frame angular velocity.
void SummarizeEllipsoidWall3D(const EllipsoidWallImpact3D& model, const RunOutcome& outcome, nlohmann::json& out) {
  const auto& events = outcome.record.events;
  const ContactEvent* start = nullptr;
  const ContactEvent* end = nullptr;
  int starts = 0;
  for (const auto& ev : events) {
    if (ev.kind == ContactEventKind::kStart && starts++ == 0) start = &ev;
    if (start && !end && ev.kind == ContactEventKind::kEnd) end = &ev;
  }
  const ContactMetrics m = FirstContactMetrics(events, 0);
  const auto& p = model.parameters();
  const MechanicalState s0 = start ? start->state : model.InitialState();
  const auto c0 = model.ContactAt(s0.q);
  const Eigen::Vector3d lever0 = c0.geometry.support_point - s0.q.head<3>();
  const Eigen::Matrix3d inertia0 = model.WorldInertia(s0.q);
  out["m_n_star_initial"] = ProjectedNormalMass(InverseEffectiveMassBodyWall({p.mass, inertia0, lever0}),
                                                Eigen::Vector3d::UnitZ());
  out["rho_G_initial"] = c0.geometry.gaussian_radius;
  auto null = nlohmann::json(nullptr);
  ImpulsiveImpactInput in;
  in.mass = p.mass;
  in.inertia = inertia0;
  in.lever = lever0;
  in.velocity = s0.v.head<3>();
  in.angular_velocity = model.WorldAngularVelocity(s0);
  in.e_cn = p.e_cn;
  try {
    const auto imp = SolveImpulsiveWallImpact(in);
    out["e_E_impulsive"] = imp.e_E;
    for (int i = 0; i < 3; ++i) {
      out[std::string("v_impulsive_") + "xyz"[i]] = imp.velocity[i];
      out[std::string("omega_impulsive_") + "xyz"[i]] = imp.angular_velocity[i];
    }
  } catch (const InvalidParameter&) {
    out["e_E_impulsive"] = null;
  }
  out["delta_max"] = m.max_overlap ? nlohmann::json(*m.max_overlap) : null;
  out["delta_max_over_rho"] = m.max_overlap ? nlohmann::json(*m.max_overlap / c0.geometry.gaussian_radius) : null;
  out["second_contact"] = starts > 1;
  out["rebounds"] = end != nullptr;
  if (start && end) {
    const double vcn_in = model.ContactNormalVelocity(start->state);
    const double vcn_out = model.ContactNormalVelocity(end->state);
    out["e_cn"] = -vcn_out / vcn_in;
    out["restitution"] = -vcn_out / vcn_in;
    out["e_E"] = std::sqrt(model.KineticEnergy(end->state) / model.KineticEnergy(start->state));
    const Eigen::Vector3d w = model.WorldAngularVelocity(end->state);
    for (int i = 0; i < 3; ++i) {
      out[std::string("v_after_") + "xyz"[i]] = end->state.v[i];
      out[std::string("omega_after_") + "xyz"[i]] = w[i];
    }
    out["contact_duration"] = end->t - start->t;
  } else {
    out["e_cn"] = out["restitution"] = out["e_E"] = out["contact_duration"] = null;
  }
  out["max_overlap"] = out["delta_max"];
}

}  // namespace

void RegisterEllipsoidWallModel(Registry<ModelFactory>& r) {
  r.Add("ellipsoid_wall",
        "rigid ellipsoid on a rigid wall, planar (x, z, theta), ECC Model I + contact-centric damping (Seed000 §6); "
        "keys: semi_axes, mass, theta_deg, v_x, v_z, omega_y, gap, K_n, e_cn, damping "
        "(adaptive | fixed_reduced_mass | fixed_initial_mass)",
        [](const ParameterSet& ps) {
          RejectInapplicableLaw(ps, "normal_law", "ellipsoid_wall", "its contact is a volume (ECC Model I, W = K_n V_c), not a scalar gap: the ECC volume law is its only normal law (key K_n)");
          RejectTangentialLaw(ps, "ellipsoid_wall", "Seed000's ellipsoid-wall impact is frictionless");
          EllipsoidWallParameters p;
          const auto axes = ps.GetVector("semi_axes", {1.0, 0.6, 0.6});
          if (axes.size() != 3)
            throw InvalidParameter("semi_axes", ParameterSet::ToString(axes), "three numbers (a, b, c) [m]");
          p.shape.semi_axes = Eigen::Vector3d(axes[0], axes[1], axes[2]);
          p.mass = ps.GetDouble("mass", p.mass);
          p.theta_deg = ps.GetDouble("theta_deg", p.theta_deg);
          p.v_x = ps.GetDouble("v_x", p.v_x);
          p.v_z = ps.GetDouble("v_z", p.v_z);
          p.omega_y = ps.GetDouble("omega_y", p.omega_y);
          p.gap = ps.GetDouble("gap", p.gap);
          p.K_n = ps.GetDouble("K_n", p.K_n);
          p.e_cn = ps.GetDouble("e_cn", p.e_cn);
          p.damping = ParseDampingMassMode(ps.GetString("damping", "adaptive"));
          auto model = std::make_shared<EllipsoidWallImpact>(p);
          ModelInstance mi;
          mi.system = model;
          mi.summarize = [model](const RunOutcome& o, nlohmann::json& out) { SummarizeEllipsoidWall(*model, o, out); };
          return mi;
        });
  r.Add("ellipsoid_wall_3d",
        "rigid ellipsoid on a rigid wall, full 3D (position + quaternion, Euler equations), ECC Model I + "
        "contact-centric damping; keys: semi_axes, mass, theta_deg, tilt_deg, v_x, v_y, v_z, omega_x, omega_y, "
        "omega_z (world frame), gap, K_n, e_cn, damping, g (gravity along -z); friction: tangential_law (+ mu, "
        "G_star | kt, kt_over_kn), R* = rho_G at first touch",
        [](const ParameterSet& ps) {
          RejectInapplicableLaw(ps, "normal_law", "ellipsoid_wall_3d", "its contact is a volume (ECC Model I, W = K_n V_c), not a scalar gap: the ECC volume law is its only normal law (key K_n)");
          EllipsoidWall3DParameters p;
          const auto axes = ps.GetVector("semi_axes", {1.0, 0.6, 0.6});
          if (axes.size() != 3)
            throw InvalidParameter("semi_axes", ParameterSet::ToString(axes), "three numbers (a, b, c) [m]");
          p.shape.semi_axes = Eigen::Vector3d(axes[0], axes[1], axes[2]);
          p.mass = ps.GetDouble("mass", p.mass);
          p.theta_deg = ps.GetDouble("theta_deg", p.theta_deg);
          p.tilt_deg = ps.GetDouble("tilt_deg", p.tilt_deg);
          p.velocity = Eigen::Vector3d(ps.GetDouble("v_x", 0.0), ps.GetDouble("v_y", 0.0), ps.GetDouble("v_z", -1.5));
          p.angular_velocity = Eigen::Vector3d(ps.GetDouble("omega_x", 0.0), ps.GetDouble("omega_y", 0.0),
                                               ps.GetDouble("omega_z", 0.0));
          p.gap = ps.GetDouble("gap", p.gap);
          p.K_n = ps.GetDouble("K_n", p.K_n);
          p.e_cn = ps.GetDouble("e_cn", p.e_cn);
          p.damping = ParseDampingMassMode(ps.GetString("damping", "adaptive"));
          p.gravity = ps.GetDouble("g", 0.0);
          p.Validate();
          // R* of the initial configuration: the law built once (the contact starts there when gap = 0).
          const EllipsoidWallImpact3D frictionless(p);
          auto friction =
              EllipsoidFrictionFromKeys(ps, p.K_n, frictionless.EffectiveRadius(frictionless.InitialState().q));
          // μ = 0: the law (its keys checked above) would apply no force; the model is then the frictionless one
          // exactly, z included (the ODE solvers' error norms would otherwise count the idle history entries).
          if (friction && friction->friction_coefficient() == 0.0) friction = nullptr;
          auto model = std::make_shared<EllipsoidWallImpact3D>(p, friction);
          ModelInstance mi;
          mi.system = model;
          mi.summarize = [model](const RunOutcome& o, nlohmann::json& out) { SummarizeEllipsoidWall3D(*model, o, out); };
          return mi;
        });
}

}  // namespace impactlab
