// `impactlab dtcrit SCENARIO.toml [--set key=value]... [--json]`
// `impactlab dtcrit --p P [--m M] [--k K] [--v0 V] [--e E | --alpha A] [--json]`
// The critical time step of explicit schemes. With a scenario: the model's own estimate
// (MechanicalSystem::CriticalTimeStep), exactly the number `impactlab run` warns against and --strict
// enforces. With --p: the power-law contact [docs/theory.md §4; lib/exact/critical_time_step.h]; the first
// line is the same estimate the contact_oscillator model uses (tangent stiffness W'' at the undamped δ_max,
// Belytschko's damped factor), the other variants follow for comparison, each labelled.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "contact/restitution_calibration.h"
#include "core/errors.h"
#include "exact/critical_time_step.h"
#include "registry/registries.h"
#include "scenario/scenario.h"

namespace impactlab::cli {

void AddDtcritCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("dtcrit", "critical time step of explicit schemes (the run guard's estimate)");
  struct Args {
    std::string scenario;
    std::vector<std::string> sets;
    std::optional<double> p;
    double m = 1.0, k = 1.0, v0 = 1.0;
    std::optional<double> e, alpha;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* sc_opt = sub->add_option("scenario", args->scenario, "scenario TOML file: the model's own estimate");
  sub->add_option("--set", args->sets, "override a scenario key: key=value (repeatable)")->needs(sc_opt);
  auto* p_opt = sub->add_option("--p", args->p, "force exponent p >= 1 (power-law contact without a scenario)");
  p_opt->excludes(sc_opt);
  sub->add_option("--m", args->m, "mass m [kg] > 0 (default 1)")->needs(p_opt);
  sub->add_option("--k", args->k, "stiffness k [N/m^p] > 0 (default 1)")->needs(p_opt);
  sub->add_option("--v0", args->v0, "impact velocity v0 [m/s] > 0 (default 1)")->needs(p_opt);
  auto* e_opt = sub->add_option("--e", args->e, "restitution (for the damped bound)")->needs(p_opt);
  auto* a_opt = sub->add_option("--alpha", args->alpha, "Tsuji alpha (for the damped bound)")->needs(p_opt);
  e_opt->excludes(a_opt);
  sub->add_flag("--json", args->json, "print JSON on stdout");
  sub->callback([&action, args] {
    action = [args] {
      if (!args->scenario.empty()) {
        Scenario sc = LoadScenario(args->scenario);
        for (const auto& s : args->sets) ApplyOverride(sc, s);
        const ModelInstance model = ModelRegistry().Get(sc.model).make(sc.parameters);
        const auto crit = model.system->CriticalTimeStep(model.system->InitialState());
        if (CheckOnly()) return 0;
        nlohmann::json j;
        j["scenario"] = sc.path;
        j["model"] = sc.model;
        j["dt_crit"] = crit ? nlohmann::json(*crit) : nlohmann::json(nullptr);
        if (args->json) {
          std::cout << std::setprecision(17) << j.dump(2) << "\n";
          return 0;
        }
        if (crit)
          std::cout << std::setprecision(10) << "dt_crit [s] = " << *crit << "   (model " << sc.model
                    << ": the estimate `impactlab run` warns against and --strict enforces)\n";
        else
          std::cout << "model " << sc.model << " states no critical-step estimate\n";
        return 0;
      }
      if (!args->p) throw InvalidParameter("dtcrit", "(no scenario and no --p)", "a scenario file or --p P");
      const double p = *args->p;
      const double alpha = args->alpha ? *args->alpha : args->e ? TsujiAlphaFromRestitution(*args->e, p) : 0.0;
      const CriticalTimeStep c = PowerLawCriticalTimeStep(args->m, args->k, p, args->v0, alpha);
      if (CheckOnly()) return 0;  // the closed forms above validated every argument
      nlohmann::json j;
      j["p"] = p;
      j["m"] = args->m;
      j["k"] = args->k;
      j["v0"] = args->v0;
      j["alpha"] = alpha;
      j["delta_max_undamped"] = c.delta_max_undamped;
      j["dt_crit"] = c.tangent_damped;  // = ContactOscillator::CriticalTimeStep (the run guard)
      j["dt_crit_effective"] = c.effective;
      j["dt_crit_tangent"] = c.tangent;
      j["dt_crit_effective_damped"] = c.effective_damped;
      j["steps_per_contact_at_dt_crit_effective"] = c.steps_per_contact;
      j["scaling_exponent_v0"] = -(p - 1.0) / (p + 1.0);
      if (args->json) {
        std::cout << std::setprecision(17) << j.dump(2) << "\n";
        return 0;
      }
      std::cout << std::setprecision(10) << "dt_crit [s] = " << c.tangent_damped
                << "   (the run guard's estimate: tangent stiffness W'' = p k delta_max^(p-1) at the undamped "
                   "delta_max, times Belytschko's damping factor)\n"
                << "for comparison:\n"
                << "  delta_max (undamped) [m]                   = " << c.delta_max_undamped << "\n"
                << "  4 delta_max/((p+1) v0), k_eff (Feng) [s]   = " << c.effective << "\n"
                << "  tangent stiffness, undamped [s]            = " << c.tangent << "\n"
                << "  k_eff, damped (Belytschko) [s]             = " << c.effective_damped << "\n"
                << "  undamped t_c / (k_eff estimate)            = " << c.steps_per_contact << "\n"
                << "  scaling: dt_crit ~ v0^" << -(p - 1.0) / (p + 1.0) << "\n";
      return 0;
    };
  });
}

}  // namespace impactlab::cli
