// Registration of the planar EFDA pieces (Seed003): the "efda" integrator and the planar models
// "ellipse_box" (carom, with the rigid Routh reference in its summary) and "ellipses_multi".
#include <cmath>

#include "integrators/efda.h"
#include "metrics/carom_comparison.h"
#include "models/ellipse_box.h"
#include "models/ellipses_multi.h"
#include "core/checks.h"
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

void RegisterPlanarModels(Registry<ModelFactory>& r) {
  r.Add("ellipse_box",
        "Seed003 carom: rigid ellipse in a square box, penalty + Coulomb friction; keys: a, b, m, box, x0, y0, "
        "alpha_deg, vx, vy, omega, gravity, K_N, K_T, xi_N, xi_T, mu | friction_angle_deg, reference_e, "
        "reference_hypothesis, compare_impacts",
        [](const ParameterSet& p) {
          RejectInapplicableLaw(p, "normal_law", "ellipse_box", "the planar ellipse gap is Seed003's penalty law (V_N = K_N delta^2/2, keys K_N, xi_N) with its spring friction (K_T, xi_T, mu)");
          RejectInapplicableLaw(p, "tangential_law", "ellipse_box", "the planar contacts carry Seed003's linear spring (K_T) with Coulomb slip; the Mindlin laws need a Hertzian sphere contact");
          const EllipseBoxParameters bp = EllipseBoxParameters::FromParameterSet(p);
          const double compare_value = p.GetDouble("compare_impacts", 10.0);
          if (!(compare_value >= 1.0 && compare_value <= 1000.0 && compare_value == std::floor(compare_value)))
            throw InvalidParameter("compare_impacts", compare_value, "an integer in [1, 1000]");
          const int compare = static_cast<int>(compare_value);
          ModelInstance mi;
          mi.system = std::make_shared<PlanarEllipses>(MakeEllipseBoxConfig(bp));
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
        "b, m, spacing, speed, spin, walls, box, gravity, K_N, K_T, xi_N, xi_T, mu",
        [](const ParameterSet& p) {
          RejectInapplicableLaw(p, "normal_law", "ellipses_multi", "the planar ellipse gap is Seed003's penalty law (V_N = K_N delta^2/2, keys K_N, xi_N) with its spring friction (K_T, xi_T, mu)");
          RejectInapplicableLaw(p, "tangential_law", "ellipses_multi", "the planar contacts carry Seed003's linear spring (K_T) with Coulomb slip; the Mindlin laws need a Hertzian sphere contact");
          ModelInstance mi;
          mi.system = std::make_shared<PlanarEllipses>(MakeEllipsesMultiConfig(p));
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
