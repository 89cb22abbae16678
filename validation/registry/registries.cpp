#include "registry/registries.h"

#include <cmath>

#include "contact/damped_normal_law.h"
#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "core/checks.h"
#include "integrators/cvode_bdf.h"
#include "integrators/event_split_runge_kutta4.h"
#include "integrators/event_split_velocity_verlet.h"
#include "integrators/odeint_runge_kutta.h"
#include "integrators/odeint_symplectic_rkn.h"
#include "integrators/velocity_verlet.h"
#include "metrics/contact_metrics.h"
#include "models/contact_oscillator.h"

namespace impactlab {

namespace {

OdeintRungeKutta::Options RkOptions(const ParameterSet& p) {
  OdeintRungeKutta::Options o;
  o.abs_tol = RequirePositive("rk_atol", p.GetDouble("rk_atol", o.abs_tol));
  o.rel_tol = RequirePositive("rk_rtol", p.GetDouble("rk_rtol", o.rel_tol));
  return o;
}

Registry<IntegratorFactory> MakeIntegratorRegistry() {
  Registry<IntegratorFactory> r("integrator");
  r.Add("velocity_verlet", "explicit velocity Verlet (DEM), damping implicit in the end velocity",
        [](const ParameterSet&) { return std::make_unique<VelocityVerlet>(); });
  r.Add("velocity_verlet_explicit_damping",
        "velocity Verlet as DEM codes (LAMMPS) run it: one force evaluation per step, dampers fed the half-step "
        "velocity (first order with damping)",
        [](const ParameterSet&) { return std::make_unique<VelocityVerlet>(VerletDamping::kHalfStepVelocity); });
  r.Add("velocity_verlet_event", "velocity Verlet split at located contact onsets/releases (docs/theory.md §12.3)", [](const ParameterSet&) { return std::make_unique<EventSplitVelocityVerlet>(); });
  r.Add("rk4", "classical Runge-Kutta 4 (Boost.Odeint), fixed step",
        [](const ParameterSet&) { return std::make_unique<OdeintRungeKutta>(OdeintMethod::kRk4); });
  r.Add("rk4_event",
        "classical Runge-Kutta 4 (Boost.Odeint) split at located contact onsets/releases (docs/theory.md §12.3)",
        [](const ParameterSet&) { return std::make_unique<EventSplitRungeKutta4>(); });
  r.Add("dopri5", "Dormand-Prince 5(4) adaptive (Boost.Odeint)",
        [](const ParameterSet& p) { return std::make_unique<OdeintRungeKutta>(OdeintMethod::kDopri5, RkOptions(p)); });
  r.Add("rkf78", "Runge-Kutta-Fehlberg 7(8) adaptive (Boost.Odeint)",
        [](const ParameterSet& p) { return std::make_unique<OdeintRungeKutta>(OdeintMethod::kRkf78, RkOptions(p)); });
  r.Add("mclachlan4", "McLachlan 4th-order symplectic RKN (Boost.Odeint)",
        [](const ParameterSet&) { return std::make_unique<OdeintSymplecticRkn>(); });
  r.Add("cvode_bdf", "SUNDIALS CVODE variable-order BDF with root finding at delta = 0", [](const ParameterSet& p) {
    CvodeBdf::Options o;
    o.rel_tol = p.GetDouble("cvode_rtol", o.rel_tol);
    o.abs_tol = p.GetDouble("cvode_atol", o.abs_tol);
    const std::string linear = p.GetString("cvode_linear_solver", "auto");
    if (linear == "auto")
      o.linear_solver = CvodeLinearSolver::kAuto;
    else if (linear == "dense")
      o.linear_solver = CvodeLinearSolver::kDense;
    else if (linear == "spgmr")
      o.linear_solver = CvodeLinearSolver::kSpgmr;
    else
      throw InvalidParameter("cvode_linear_solver", "\"" + linear + "\"", "\"auto\", \"dense\" or \"spgmr\"");
    return std::make_unique<CvodeBdf>(o);
  });
  RegisterEfdaIntegrator(r);
  RegisterConservingIntegrators(r);
  RegisterExactIntegrators(r);
#ifdef IMPACTLAB_WITH_SICONOS
  RegisterSiconosIntegrators(r);
#endif
  return r;
}

Registry<NormalLawFactory> MakeNormalLawRegistry() {
  Registry<NormalLawFactory> r("normal_law");
  r.Add("linear", "F = k delta (keys: k)",
        [](const ParameterSet& p) { return std::make_shared<LinearLaw>(p.GetDouble("k")); });
  r.Add("hertz", "F = 4/3 E* sqrt(R*) delta^1.5 (keys: E_star and R_star, or k)", [](const ParameterSet& p) {
    if (p.Has("E_star") || p.Has("R_star"))
      return std::make_shared<HertzLaw>(HertzLaw::FromMaterial(p.GetDouble("E_star"), p.GetDouble("R_star")));
    return std::make_shared<HertzLaw>(p.GetDouble("k"));
  });
  r.Add("power_law", "F = k delta^p, p >= 1 (keys: k, p)", [](const ParameterSet& p) {
    return std::make_shared<PowerLaw>(p.GetDouble("k"), p.GetDouble("p"));
  });
  return r;
}

// Target restitution e ∈ (0, 1]; e = 1 means undamped for every law.
double TargetRestitution(const ParameterSet& p) { return RequireInLeftOpen("e", p.GetDouble("e", 1.0), 0.0, 1.0); }

Registry<DampingLawFactory> MakeDampingLawRegistry() {
  Registry<DampingLawFactory> r("damping");
  r.Add("none", "no damping (requires e = 1)", [](const ParameterSet& p, const auto&, double) {
    if (TargetRestitution(p) != 1.0) throw InvalidParameter("e", p.GetDouble("e"), "1 when damping = \"none\"");
    return std::make_shared<NoDamping>();
  });
  r.Add("linear_viscous", "C = c; c from key c, or c = 2 xi_L(e) sqrt(m k) (exact for p = 1)",
        [](const ParameterSet& p, const std::shared_ptr<const NormalContactLaw>& el, double m) {
          if (p.Has("c")) return std::make_shared<LinearViscousDamping>(p.GetDouble("c"));
          const double e = TargetRestitution(p);
          return std::make_shared<LinearViscousDamping>(2.0 * DampingRatioFromRestitution(e) *
                                                        std::sqrt(m * el->coefficient()));
        });
  r.Add("tsuji", "C = alpha sqrt(m k) delta^((p-1)/2); alpha from key alpha or alpha = sqrt(2(p+1)) xi_L(e)",
        [](const ParameterSet& p, const std::shared_ptr<const NormalContactLaw>& el, double m) {
          const double alpha = p.Has("alpha") ? p.GetDouble("alpha")
                                              : TsujiAlphaFromRestitution(TargetRestitution(p), el->exponent());
          return std::make_shared<TsujiDamping>(alpha, m, el->coefficient(), el->exponent());
        });
  r.Add("universal", "C = xi sqrt(2m) W'/sqrt(W) (Seed000 eq. 22); xi = xi_L(e)",
        [](const ParameterSet& p, const std::shared_ptr<const NormalContactLaw>& el, double m) {
          return std::make_shared<UniversalDamping>(DampingRatioFromRestitution(TargetRestitution(p)), m, el);
        });
  r.Add("kuwabara_kono", "C = gamma delta^(1/2); gamma from key gamma (restitution depends on v0)",
        [](const ParameterSet& p, const auto&, double) {
          return std::make_shared<KuwabaraKonoDamping>(p.GetDouble("gamma", 0.0));
        });
  return r;
}

void SummarizeFirstContact(const RunOutcome& outcome, nlohmann::json& out) {
  const ContactMetrics m = FirstContactMetrics(outcome.record.events, 0);
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  out["rebounds"] = m.rebounds;
  out["restitution"] = opt(m.restitution);
  out["contact_duration"] = opt(m.contact_duration);
  out["max_overlap"] = opt(m.max_overlap);
  out["t_max_overlap"] = m.t_max_overlap ? nlohmann::json(*m.t_max_overlap - m.t_start) : nlohmann::json(nullptr);
}

Registry<ModelFactory> MakeModelRegistry() {
  Registry<ModelFactory> r("model");
  r.Add("contact_oscillator",
        "1D body on a rigid half-space (or two bodies, reduced mass); keys: normal_law, k | E_star, R_star, p, "
        "damping, e | alpha | c | gamma, m, v0, initial_gap, g (gravity towards the surface)",
        [](const ParameterSet& p) {
          RejectTangentialLaw(p, "contact_oscillator", "a 1-D contact has no tangential direction");
          ContactOscillatorParameters op;
          op.mass = RequirePositive("m", p.GetDouble("m", 1.0));
          op.impact_velocity = RequirePositive("v0", p.GetDouble("v0", 1.0));
          op.initial_gap = p.GetDouble("initial_gap", 0.0);
          op.gravity = RequireNonNegative("g", p.GetDouble("g", 0.0));
          const std::string law_name = p.GetString("normal_law", "hertz");
          if (law_name != "power_law" && p.Has("p")) {
            const double pp = p.GetDouble("p");
            const double expected = law_name == "linear" ? 1.0 : law_name == "hertz" ? 1.5 : pp;
            if (pp != expected) throw InvalidParameter("p", pp, "only with normal_law = \"power_law\" (or p = " +
                                                                    InvalidParameter::FormatNumber(expected) + ")");
          }
          if (law_name == "power_law" && p.Has("p")) RequireAtLeast("p", p.GetDouble("p"), 1.0);
          auto elastic = NormalLawRegistry().Get(law_name).make(p);
          if (law_name == "hertz" && p.Has("R_star")) op.contact_radius = p.GetDouble("R_star");  // overlap guard
          const double e = TargetRestitution(p);
          std::string damping = p.GetString("damping", e == 1.0 ? "none" : "tsuji");
          if (e == 1.0 && damping != "kuwabara_kono" && !p.Has("alpha") && !p.Has("c")) damping = "none";
          auto damper = DampingLawRegistry().Get(damping).make(p, elastic, op.mass);
          ModelInstance mi;
          mi.system = std::make_shared<ContactOscillator>(op, DampedNormalLaw{elastic, damper});
          mi.summarize = SummarizeFirstContact;
          return mi;
        },
        ExampleKeys({{"k", 1.0e6}}));
  RegisterEllipsoidWallModel(r);
  RegisterPlanarModels(r);
  RegisterSphereModels(r);
  RegisterConservingModels(r);
  RegisterSphereAssemblyModel(r);
  RegisterFreeRigidBodyModel(r);
  return r;
}

}  // namespace

void RejectInapplicableLaw(const ParameterSet& p, const std::string& key, const std::string& model,
                           const std::string& why) {
  if (!p.Has(key)) return;
  const auto& v = p.values().at(key);
  throw InvalidParameter(key, ParameterSet::ToString(v), "not on model \"" + model + "\": " + why);
}

void RejectTangentialLaw(const ParameterSet& p, const std::string& model, const std::string& why) {
  RejectInapplicableLaw(p, "tangential_law", model, why);
  RejectInapplicableLaw(p, "mu", model, why);
}

// Built-in entries on first use; user entries are added through registry/extension.h.
Registry<IntegratorFactory>& MutableIntegratorRegistry() {
  static auto r = MakeIntegratorRegistry();
  return r;
}
Registry<NormalLawFactory>& MutableNormalLawRegistry() {
  static auto r = MakeNormalLawRegistry();
  return r;
}
Registry<DampingLawFactory>& MutableDampingLawRegistry() {
  static auto r = MakeDampingLawRegistry();
  return r;
}
Registry<ModelFactory>& MutableModelRegistry() {
  static auto r = MakeModelRegistry();
  return r;
}
const Registry<IntegratorFactory>& IntegratorRegistry() { return MutableIntegratorRegistry(); }
const Registry<NormalLawFactory>& NormalLawRegistry() { return MutableNormalLawRegistry(); }
const Registry<DampingLawFactory>& DampingLawRegistry() { return MutableDampingLawRegistry(); }
const Registry<ModelFactory>& ModelRegistry() { return MutableModelRegistry(); }

}  // namespace impactlab
