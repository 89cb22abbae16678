// `impactlab converge SCENARIO.toml --integrator A ... --dt-min X --dt-max Y --levels N [--set k=v]... [--out DIR]
//  [--json]`: errors of each integrator against Feng's exact solution (restitution, delta_max, t_c, trajectory
// max-norm over the contact) on N log-spaced steps, least-squares observed orders, CSV + log-log PNGs + a table
// [validation/convergence/exact_convergence.h; docs/exact-solution.md].
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/command.h"
#include "core/suggest.h"
#include "convergence/exact_convergence.h"
#include "core/checks.h"
#include "core/errors.h"
#include "io/atomic_file.h"
#include "registry/registries.h"
#include "report/figure_spec.h"
#include "report/report_writer.h"
#include "scenario/scenario.h"

namespace impactlab::cli {

namespace {
const char* const kMeasures[] = {"restitution", "delta_max", "t_contact", "trajectory"};
double Measure(const ExactErrors& e, int i) {
  switch (i) {
    case 0: return e.restitution;
    case 1: return e.delta_max;
    case 2: return e.t_contact;
    default: return e.trajectory;
  }
}
nlohmann::json FiniteOrNull(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

void AddConvergeCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("converge", "convergence against Feng's exact solution (power-law Tsuji oscillator)");
  struct Args {
    std::string scenario, out;
    std::vector<std::string> sets, integrators;
    double dt_min = 0.0, dt_max = 0.0;
    int levels = 6;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  sub->add_option("scenario", args->scenario, "scenario TOML file (model contact_oscillator)")->required();
  sub->add_option("--set", args->sets, "override a scenario key: key=value (repeatable)");
  sub->add_option("--integrator", args->integrators, "integrator name (repeatable)")->required();
  sub->add_option("--dt-min", args->dt_min, "smallest step [s]")->required();
  sub->add_option("--dt-max", args->dt_max, "largest step [s]")->required();
  sub->add_option("--levels", args->levels, "number of log-spaced steps (>= 2)");
  sub->add_option("--out", args->out, "output directory (CSV, PNG, table.md, convergence.json)");
  sub->add_flag("--json", args->json, "print JSON on stdout");
  sub->callback([&action, args] {
    action = [args] {
      Scenario sc = LoadScenario(args->scenario);
      for (const auto& s : args->sets) ApplyOverride(sc, s);
      RequirePositive("dt_min", args->dt_min);
      RequirePositive("dt_max", args->dt_max);
      if (!(args->dt_max >= args->dt_min)) throw InvalidParameter("dt_max", args->dt_max, ">= dt_min");
      if (args->levels < 2) throw InvalidParameter("levels", static_cast<double>(args->levels), ">= 2");
      const ParameterSet& p = sc.parameters;
      ModelInstance model = ModelRegistry().Get(sc.model).make(p);
      std::vector<std::unique_ptr<Integrator>> integrators;
      for (const auto& n : args->integrators) integrators.push_back(IntegratorRegistry().Get(n).make(p));
      // As in `impactlab run`: option keys of integrators not chosen here (cvode_rtol, ...) are valid keys.
      for (const auto& [n, entry] : IntegratorRegistry().entries()) (void)entry.make(p);
      // The scenario's own run length and step are replaced by the exact contact and --dt-*; every other key
      // must have been used by the model or an integrator (a typo is an error, as in `impactlab run`).
      (void)p.GetDouble("t_end", 0.0);
      (void)p.GetDouble("dt", 0.0);
      (void)p.GetDouble("stop_after_separation", 0.0);
      (void)p.GetDouble("output_every", 0.0);
      if (auto unused = p.UnusedKeys(); !unused.empty())
        throw InvalidParameter(unused.front(), ParameterSet::ToString(p.values().at(unused.front())),
                               "a key of model \"" + sc.model + "\" or of the chosen integrators" +
                                   DidYouMean(unused.front(), p.AskedKeys()));
      const ExactReference ref = MakeExactReference(*model.system);
      if (CheckOnly()) return 0;
      std::vector<double> dts;
      for (int i = 0; i < args->levels; ++i)
        dts.push_back(args->dt_max * std::pow(args->dt_min / args->dt_max, double(i) / (args->levels - 1)));

      nlohmann::json j;
      j["scenario"] = sc.path;
      j["exact"] = {{"restitution", ref.solution.restitution()},
                    {"delta_max", ref.solution.max_overlap()},
                    {"t_contact", ref.solution.contact_time()},
                    {"p", ref.solution.parameters().exponent},
                    {"alpha", ref.solution.parameters().alpha}};
      j["observed_order"] = nlohmann::json::object();
      j["runs"] = nlohmann::json::object();
      const std::filesystem::path out = args->out;
      std::ostringstream table;
      table << "| integrator | order e | order delta_max | order t_c | order trajectory |\n|---|---|---|---|---|\n";
      std::vector<FigureSpec> figs;
      for (int m = 0; m < 4; ++m)
        figs.push_back({std::string("convergence_") + kMeasures[m], std::string("error in ") + kMeasures[m] +
                        " vs exact solution", "dt [s]", "error (relative; e absolute)", true, true, {}});
      for (auto& integ : integrators) {
        std::vector<ExactErrors> rows;
        for (double dt : dts) rows.push_back(MeasureAgainstExact(*model.system, *integ, ref, dt));
        std::ostringstream csv;
        csv << "dt_s,restitution_error,delta_max_error,t_contact_error,trajectory_error,steps,rhs_evaluations,"
               "wall_time_s\n"
            << std::setprecision(17);
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& r : rows) {
          csv << r.dt << ',' << r.restitution << ',' << r.delta_max << ',' << r.t_contact << ',' << r.trajectory
              << ',' << r.steps << ',' << r.rhs_evaluations << ',' << r.wall_time_s << '\n';
          runs.push_back({{"dt", r.dt}, {"restitution_error", FiniteOrNull(r.restitution)},
                          {"delta_max_error", FiniteOrNull(r.delta_max)}, {"t_contact_error", FiniteOrNull(r.t_contact)},
                          {"trajectory_error", FiniteOrNull(r.trajectory)}, {"steps", r.steps},
                          {"rhs_evaluations", r.rhs_evaluations}, {"wall_time_s", r.wall_time_s}});
        }
        j["runs"][integ->name()] = runs;
        table << "| " << integ->name();
        for (int m = 0; m < 4; ++m) {
          std::vector<double> err;
          for (const auto& r : rows) err.push_back(Measure(r, m));
          const auto order = ObservedOrder(dts, err);
          j["observed_order"][integ->name()][kMeasures[m]] = order ? nlohmann::json(*order) : nlohmann::json(nullptr);
          std::ostringstream cell;
          if (order) cell << std::fixed << std::setprecision(2) << *order; else cell << "n/a";
          table << " | " << cell.str();
          const char* cols[] = {"restitution_error", "delta_max_error", "t_contact_error", "trajectory_error"};
          figs[m].series.push_back({integ->name() + ".csv", "dt_s", cols[m], integ->name(), "o-"});
        }
        table << " |\n";
        if (!out.empty()) WriteFileAtomically(out / (integ->name() + ".csv"), csv.str());
      }
      if (!out.empty()) {
        for (const auto& f : figs) WriteFigureSpec(out, f);
        WriteFileAtomically(out / "table.md", table.str());
        WriteFileAtomically(out / "convergence.json", j.dump(2));
        RenderFigures(out);
      }
      if (args->json) {
        std::cout << std::setprecision(17) << j.dump(2) << "\n";
      } else {
        std::cout << "exact: e = " << ref.solution.restitution() << ", delta_max = " << ref.solution.max_overlap()
                  << ", t_c = " << ref.solution.contact_time() << "\n\n" << table.str();
        if (!out.empty()) std::cout << "wrote " << out.string() << "/{*.csv, convergence_*.png, table.md}\n";
      }
      return 0;
    };
  });
}

}  // namespace impactlab::cli
