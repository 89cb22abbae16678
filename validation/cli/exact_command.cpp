// `impactlab exact --p P (--e E | --alpha A) [--m M] [--k K] [--v0 V] [--json] [--trajectory FILE.csv --samples N]`
// Feng's exact solution of the power-law Tsuji oscillator [Seed001; docs/theory.md §5; docs/exact-solution.md].
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command.h"
#include "core/errors.h"
#include "exact/feng_power_law_solution.h"
#include "io/atomic_file.h"

namespace impactlab::cli {

namespace {
nlohmann::json FiniteOrNull(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

void AddExactCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("exact", "exact solution of m d'' + alpha sqrt(mk) d^((p-1)/2) d' + k d^p = 0");
  struct Args {
    double p = 1.5, m = 1.0, k = 1.0, v0 = 1.0;
    std::optional<double> e, alpha;
    bool json = false;
    std::string trajectory;
    int samples = 1000;
  };
  auto args = std::make_shared<Args>();
  sub->add_option("--p", args->p, "force exponent p >= 1")->required();
  auto* e_opt = sub->add_option("--e", args->e, "target restitution e in (0, 1] (alpha = sqrt(2(p+1)) xi_L(e))");
  auto* a_opt = sub->add_option("--alpha", args->alpha, "Tsuji coefficient alpha >= 0");
  e_opt->excludes(a_opt);
  sub->add_option("--m", args->m, "mass m [kg] > 0 (default 1)");
  sub->add_option("--k", args->k, "stiffness k [N/m^p] > 0 (default 1)");
  sub->add_option("--v0", args->v0, "impact velocity v0 [m/s] > 0 (default 1)");
  sub->add_flag("--json", args->json, "print JSON on stdout");
  sub->add_option("--trajectory", args->trajectory, "write t, delta, delta_dot to this CSV");
  sub->add_option("--samples", args->samples, "trajectory samples (>= 2, default 1000)");
  sub->callback([&action, args] {
    action = [args] {
      if (!args->e && !args->alpha) throw InvalidParameter("e", "<missing>", "give --e E or --alpha A");
      FengPowerLawParameters par;
      par.exponent = args->p;
      par.mass = args->m;
      par.stiffness = args->k;
      par.impact_velocity = args->v0;
      const FengPowerLawSolution sol =
          args->e ? FengPowerLawSolution::FromRestitution(args->m, args->k, args->p, *args->e, args->v0)
                  : FengPowerLawSolution([&] {
                      par.alpha = *args->alpha;
                      return par;
                    }());
      if (CheckOnly()) return 0;  // the solution's constructor validated every argument; no trajectory file
      nlohmann::json j;
      j["p"] = args->p;
      j["m"] = args->m;
      j["k"] = args->k;
      j["v0"] = args->v0;
      j["alpha"] = sol.parameters().alpha;
      j["zeta"] = sol.zeta();
      j["rebounds"] = sol.rebounds();
      j["restitution"] = sol.restitution();
      j["delta_max"] = sol.max_overlap();
      j["t_max"] = sol.time_of_max_overlap();
      j["t_contact"] = FiniteOrNull(sol.contact_time());  // null: over-damped, never separates
      j["t_contact_undamped"] = sol.undamped_contact_time();
      j["exit_velocity"] = sol.exit_velocity();
      j["energy_initial"] = sol.initial_energy();
      j["energy_dissipated_loading"] = sol.energy_dissipated_loading();
      j["energy_dissipated_unloading"] = sol.energy_dissipated_unloading();
      if (!sol.rebounds())
        j["note"] = "over-damped (zeta >= 1): no rebound; the body creeps back to delta = 0 as t -> infinity";
      else if (!std::isfinite(sol.contact_time()))
        j["note"] = "nearly critical damping: t_contact exceeds the double range (e underflows)";
      if (!args->trajectory.empty()) {
        const auto traj = sol.Trajectory(args->samples);
        std::ostringstream csv;
        csv << "t_s,delta_m,delta_dot_m_s\n" << std::setprecision(17);
        for (const auto& s : traj) csv << s.t << ',' << s.delta << ',' << s.delta_dot << '\n';
        WriteFileAtomically(args->trajectory, csv.str());
        j["trajectory"] = args->trajectory;
        j["samples"] = args->samples;
      }
      if (args->json) {
        std::cout << std::setprecision(17) << j.dump(2) << "\n";
        return 0;
      }
      std::cout << std::setprecision(12);
      std::cout << "p = " << args->p << ", m = " << args->m << ", k = " << args->k << ", v0 = " << args->v0
                << ", alpha = " << sol.parameters().alpha << " (zeta = " << sol.zeta() << ")\n";
      if (sol.rebounds()) {
        std::cout << "restitution e            = " << sol.restitution() << "\n";
      } else {
        std::cout << "over-damped: no rebound (e = 0); the body creeps back to delta = 0 as t -> infinity\n";
      }
      std::cout << "delta_max [m]            = " << sol.max_overlap() << "\n"
                << "t_max [s]                = " << sol.time_of_max_overlap() << "\n"
                << "t_contact [s]            = "
                << (sol.rebounds() ? (std::isfinite(sol.contact_time()) ? InvalidParameter::FormatNumber(sol.contact_time())
                                                                        : std::string("beyond double range"))
                                   : std::string("infinite (no rebound)"))
                << "\n"
                << "t_contact undamped [s]   = " << sol.undamped_contact_time() << "\n"
                << "E dissipated loading [J] = " << sol.energy_dissipated_loading() << "\n"
                << "E dissipated unload. [J] = " << sol.energy_dissipated_unloading() << "\n";
      if (!args->trajectory.empty()) std::cout << "wrote " << args->trajectory << "\n";
      return 0;
    };
  });
}

}  // namespace impactlab::cli
