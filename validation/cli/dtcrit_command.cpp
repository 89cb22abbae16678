// `impactlab dtcrit --p P [--m M] [--k K] [--v0 V] [--e E | --alpha A] [--json]`
// Critical time step of velocity Verlet for the power-law contact [THEORY.md §4; lib/exact/critical_time_step.h].
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "contact/restitution_calibration.h"
#include "core/errors.h"
#include "exact/critical_time_step.h"

namespace impactlab::cli {

void AddDtcritCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("dtcrit", "critical time step 4 delta_max/((p+1) v0) of explicit schemes");
  struct Args {
    double p = 1.5, m = 1.0, k = 1.0, v0 = 1.0;
    std::optional<double> e, alpha;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  sub->add_option("--p", args->p, "force exponent p >= 1")->required();
  sub->add_option("--m", args->m, "mass m [kg] > 0 (default 1)");
  sub->add_option("--k", args->k, "stiffness k [N/m^p] > 0 (default 1)");
  sub->add_option("--v0", args->v0, "impact velocity v0 [m/s] > 0 (default 1)");
  auto* e_opt = sub->add_option("--e", args->e, "restitution (for the damped bound)");
  auto* a_opt = sub->add_option("--alpha", args->alpha, "Tsuji alpha (for the damped bound)");
  e_opt->excludes(a_opt);
  sub->add_flag("--json", args->json, "print JSON on stdout");
  sub->callback([&action, args] {
    action = [args] {
      const double alpha = args->alpha ? *args->alpha : args->e ? TsujiAlphaFromRestitution(*args->e, args->p) : 0.0;
      const CriticalTimeStep c = PowerLawCriticalTimeStep(args->m, args->k, args->p, args->v0, alpha);
      if (CheckOnly()) return 0;  // the closed forms above validated every argument
      nlohmann::json j;
      j["p"] = args->p;
      j["m"] = args->m;
      j["k"] = args->k;
      j["v0"] = args->v0;
      j["alpha"] = alpha;
      j["delta_max_undamped"] = c.delta_max_undamped;
      j["dt_crit"] = c.effective;
      j["dt_crit_tangent"] = c.tangent;
      j["dt_crit_damped"] = c.effective_damped;
      j["steps_per_contact_at_dt_crit"] = c.steps_per_contact;
      j["scaling_exponent_v0"] = -(args->p - 1.0) / (args->p + 1.0);
      if (args->json) {
        std::cout << std::setprecision(17) << j.dump(2) << "\n";
        return 0;
      }
      std::cout << std::setprecision(12) << "delta_max (undamped) [m]     = " << c.delta_max_undamped << "\n"
                << "dt_crit = 4 delta_max/((p+1) v0) [s] = " << c.effective << "   (k_eff, Feng)\n"
                << "dt_crit tangent stiffness [s] = " << c.tangent << "   (W'' = p k delta^(p-1))\n"
                << "dt_crit damped (Belytschko) [s] = " << c.effective_damped << "   (zeta = alpha/sqrt(2(p+1)))\n"
                << "undamped t_c / dt_crit       = " << c.steps_per_contact << "\n"
                << "scaling: dt_crit ~ v0^" << -(args->p - 1.0) / (args->p + 1.0) << "\n";
      return 0;
    };
  });
}

}  // namespace impactlab::cli
