// Registration of the planar EFDA pieces (Seed003): the "efda" integrator and the planar models
// "ellipse_box" (carom, with the rigid Routh reference in its summary) and "ellipses_multi".
//
// Contact laws of the planar models, by scenario key:
//   normal law   Seed003's penalty (K_N, xi_N) only: the planar gap carries no other law (normal_law, damping refused);
//   tangential   Seed003's linear spring (K_T, xi_T; the default, every published number) or, with key
//                tangential_law, any law of the TangentialLawRegistry (contact_law_registry.h) through the planar
//                binding of lib/planar/planar_tangential_law.h: the five Mindlin laws with k_t = 8 G* √(R* δ)
//                (key G_star [Pa], required; R* from the contact's curvatures at first touch), cundall_strack with
//                key kt [N/m] or kt_over_kn (× K_N; default 1); mu (friction_angle_deg) as for the spring. K_T and
//                xi_T are refused with a law (one line naming model, law and why).
#include <cmath>

#include "integrators/efda.h"
#include "metrics/carom_comparison.h"
#include "models/ellipse_box.h"
#include "models/ellipses_multi.h"
#include "core/checks.h"
#include "registry/contact_law_registry.h"
#include "registry/registries.h"

namespace impactlab {

void RegisterEfdaIntegrator(Registry<IntegratorFactory>& r) {
  r.Add("efda", "EFDA energy frictional dissipating algorithm (Seed003), planar rigid bodies, penalty + Coulomb",
        [](const ParameterSet& p) {
          Efda::Options o;
          const double it = p.GetDouble("efda_max_iterations", o.max_iterations);
          if (!(it >= 1.0 && it <= 100000.0 && it == std::floor(it)))
            throw InvalidParameter("efda_max_iterations", it, "an integer in [1, 100000]");
          o.max_iterations = static_cast<int>(it);
          o.position_tolerance = p.GetDouble("efda_position_tolerance", o.position_tolerance);
          return std::make_unique<Efda>(o);
        });
}

namespace {

constexpr const char* kPlanarNormalLawWhy =
    "the planar ellipse gap is Seed003's penalty law (V_N = K_N delta^2/2, keys K_N, xi_N) with its spring friction "
    "(K_T, xi_T, mu) or a tangential_law";

// The tangential law of key tangential_law bound to the planar contacts (planar/planar_tangential_law.h), or null
// (Seed003's spring K_T) when the key is absent.
std::shared_ptr<const PlanarTangentialLaw> PlanarTangentialLawFromKeys(const ParameterSet& p, const std::string& model,
                                                                       const PlanarPenalty& penalty) {
  if (!p.Has("tangential_law")) return nullptr;
  const std::string name = p.GetString("tangential_law");
  const TangentialLawFactory factory = TangentialLawRegistry().Get(name).make;  // unknown name: the list of laws
  const std::string why = "tangential_law = " + name + " replaces Seed003's spring and its dashpot";
  RejectInapplicableLaw(p, "K_T", model, why + " (the law sets the tangential stiffness)");
  RejectInapplicableLaw(p, "xi_T", model, why + " (the laws have no tangential dashpot)");
  const double mu = penalty.friction_coefficient;
  ParameterSet keys;
  ContactPairData pair;
  if (name == "cundall_strack") {
    // A constant spring: kt, or kt_over_kn times the penalty's K_N (default 1: the stiffness of the default K_T).
    double kt = 0.0;
    if (p.Has("kt")) {
      if (p.Has("kt_over_kn")) throw InvalidParameter("kt_over_kn", p.GetDouble("kt_over_kn"), "either kt or kt_over_kn, not both");
      kt = RequirePositive("kt", p.GetDouble("kt"));
    } else {
      kt = RequirePositive("kt_over_kn", p.GetDouble("kt_over_kn", 1.0)) * penalty.normal_stiffness;
    }
    keys.Set("kt", kt);
    const std::shared_ptr<const TangentialLaw> law = factory(keys, pair, mu);
    return std::make_shared<PlanarTangentialLaw>(name, [law](double) { return law; });
  }
  return std::make_shared<PlanarTangentialLaw>(name, MindlinLawForRadius(p, name, mu, model, "penalty"));
}

}  // namespace

void RegisterPlanarModels(Registry<ModelFactory>& r) {
  r.Add("ellipse_box",
        "Seed003 carom: rigid ellipse in a square box, penalty + Coulomb friction; keys: a, b, m, box, x0, y0, "
        "alpha_deg, vx, vy, omega, gravity, K_N, K_T, xi_N, xi_T, mu | friction_angle_deg, reference_e, "
        "reference_hypothesis, compare_impacts; tangential_law (+ G_star | kt, kt_over_kn) instead of K_T, xi_T",
        [](const ParameterSet& p) {
          RejectInapplicableLaw(p, "normal_law", "ellipse_box", kPlanarNormalLawWhy);
          RejectInapplicableLaw(p, "damping", "ellipse_box", kPlanarNormalLawWhy);
          const EllipseBoxParameters bp = EllipseBoxParameters::FromParameterSet(p);
          PlanarEllipsesConfig config = MakeEllipseBoxConfig(bp);
          config.tangential_law = PlanarTangentialLawFromKeys(p, "ellipse_box", config.penalty);
          const double compare_value = p.GetDouble("compare_impacts", 10.0);
          if (!(compare_value >= 1.0 && compare_value <= 1000.0 && compare_value == std::floor(compare_value)))
            throw InvalidParameter("compare_impacts", compare_value, "an integer in [1, 1000]");
          const int compare = static_cast<int>(compare_value);
          ModelInstance mi;
          mi.system = std::make_shared<PlanarEllipses>(std::move(config));
          mi.summarize = [bp, compare](const RunOutcome& outcome, nlohmann::json& out) {
            const RigidImpactSequence ref = MakeEllipseBoxReference(bp);
            const auto ref_impacts =
                ref.Run(EllipseBoxInitialRigidState(bp), outcome.record.final_state.t, compare + 5);
            out["carom"] = CompareCarom(ExtractImpacts(outcome.record.events), ref, ref_impacts, compare);
          };
          return mi;
        });
  r.Add("ellipses_multi",
        "N rigid ellipses colliding (isolated unless walls = true), penalty + Coulomb friction; keys: n, seed, a, "
        "b, m, spacing, speed, spin, walls, box, gravity, K_N, K_T, xi_N, xi_T, mu; tangential_law (+ G_star | kt, "
        "kt_over_kn) instead of K_T, xi_T",
        [](const ParameterSet& p) {
          RejectInapplicableLaw(p, "normal_law", "ellipses_multi", kPlanarNormalLawWhy);
          RejectInapplicableLaw(p, "damping", "ellipses_multi", kPlanarNormalLawWhy);
          PlanarEllipsesConfig config = MakeEllipsesMultiConfig(p);
          config.tangential_law = PlanarTangentialLawFromKeys(p, "ellipses_multi", config.penalty);
          ModelInstance mi;
          mi.system = std::make_shared<PlanarEllipses>(std::move(config));
          mi.summarize = [](const RunOutcome& outcome, nlohmann::json& out) {
            long starts = 0;
            for (const auto& e : outcome.record.events) starts += e.kind == ContactEventKind::kStart;
            out["contact_starts"] = starts;
            out["dissipated"] = outcome.record.final_state.dissipated;
            out["linear_momentum_drift_max"] = outcome.ledger.linear_momentum_drift_max()
                                                   ? nlohmann::json(*outcome.ledger.linear_momentum_drift_max())
                                                   : nlohmann::json(nullptr);
            out["angular_momentum_drift_max"] = outcome.ledger.angular_momentum_drift_max()
                                                    ? nlohmann::json(*outcome.ledger.angular_momentum_drift_max())
                                                    : nlohmann::json(nullptr);
          };
          return mi;
        });
}

}  // namespace impactlab
