#include "bench/matched_energy_benchmark.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>

#include "convergence/error_ladder.h"
#include "core/errors.h"
#include "exact/feng_power_law_solution.h"
#include "io/resumable_table.h"
#include "registry/registries.h"
#include "scenario/scenario.h"

namespace impactlab::bench {
namespace {

// implicit_midpoint (not energy-conserving for Hertz) needs ~1e6 implicit steps here: add it with --integrator.
const std::vector<std::string> kDefaultSchemes = {"velocity_verlet", "rk4",         "mclachlan4", "dopri5",
                                                  "cvode_bdf",       "simo_tarnow", "gonzalez_dg"};

struct Trial {
  bool ok = false;
  double max_energy_error = 0.0;
  long steps = 0;
  std::string failure;
};

/// Advances `steps` steps of `dt`; with `check`, the largest |E − E₀|/E₀ after any step.
Trial Advance(const MechanicalSystem& sys, Integrator& integrator, double dt, long steps, bool check) {
  Trial t;
  integrator.Reset();
  MechanicalState s = sys.InitialState();
  const double e0 = sys.TotalEnergy(s);
  for (long i = 0; i < steps; ++i) {
    const StepResult r = integrator.Step(sys, s, dt);
    if (r.status != StepStatus::kAccepted) {
      t.failure = "step " + std::to_string(i) + " at dt = " + FormatShortest(dt) + " rejected: " + r.message;
      return t;
    }
    if (check) t.max_energy_error = std::max(t.max_energy_error, std::abs(sys.TotalEnergy(s) - e0) / e0);
  }
  t.ok = std::isfinite(t.max_energy_error);
  t.steps = steps;
  return t;
}

}  // namespace

nlohmann::json RunMatchedEnergyAccuracy(const MatchedEnergyOptions& o, const TimingOptions& timing, bool progress) {
  if (!(o.energy_tolerance > 0.0)) throw InvalidParameter("energy_tolerance", o.energy_tolerance, "> 0");
  if (!(o.contact_durations > 0.0)) throw InvalidParameter("contact_durations", o.contact_durations, "> 0");
  if (o.num_beads < 2) throw InvalidParameter("num_beads", o.num_beads, ">= 2");
  Scenario base = LoadScenario((std::filesystem::path(IMPACTLAB_SOURCE_DIR) / "validation/scenarios/hertz_chain.toml").string());
  ApplyOverride(base, "num_beads=" + std::to_string(o.num_beads));
  ApplyOverride(base, "e=1");
  const ParameterSet& p = base.parameters;
  FengPowerLawParameters two_bead;  // two equal beads: m* = m/2, k = 4/3 E* √R*, p = 3/2
  two_bead.mass = 0.5 * p.GetDouble("m");
  two_bead.stiffness = 4.0 / 3.0 * p.GetDouble("E_star") * std::sqrt(p.GetDouble("R_star"));
  two_bead.exponent = 1.5;
  two_bead.impact_velocity = p.GetDouble("v0");
  const double t_c = FengPowerLawSolution(two_bead).contact_time();
  const double t_end = o.contact_durations * t_c;

  nlohmann::json out;
  out["problem"] = {{"scenario", "validation/scenarios/hertz_chain.toml"},
                    {"num_beads", o.num_beads},
                    {"two_bead_contact_time_s", t_c},
                    {"contact_durations", o.contact_durations},
                    {"t_end_s", t_end},
                    {"energy_tolerance", o.energy_tolerance},
                    {"accuracy", "max over steps of |E - E0| / E0"}};
  const std::vector<std::string>& names = o.integrators.empty() ? kDefaultSchemes : o.integrators;
  for (const auto& name : names) {
    if (progress) std::cerr << "bench: matched energy accuracy / " << name << "\n";
    nlohmann::json row;
    const auto& entry = IntegratorRegistry().Get(name);
    const bool adaptive = entry.make(p)->traits().adaptive;
    // Ladder of settings, cheapest first.
    std::vector<double> settings;
    if (adaptive) {
      for (double rtol = 1e-3; rtol >= 1e-13 * 0.99; rtol /= 10.0) settings.push_back(rtol);
    } else {
      for (int k = 1; k <= 17; ++k) settings.push_back(t_c / std::ldexp(1.0, k));
    }
    bool matched = false;
    for (double x : settings) {
      Scenario sc = base;
      double dt = x;
      if (adaptive) {
        const auto [rtol_key, atol_key] = ToleranceKeys(name);
        ApplyOverride(sc, rtol_key + "=" + FormatShortest(x));
        ApplyOverride(sc, atol_key + "=" + FormatShortest(1e-4 * x));
        dt = t_c / 20.0;
      }
      const long steps = static_cast<long>(std::ceil(t_end / dt));
      const ModelInstance model = ModelRegistry().Get(sc.model).make(sc.parameters);
      std::unique_ptr<Integrator> integrator = entry.make(sc.parameters);
      Trial t;
      try {
        t = Advance(*model.system, *integrator, dt, steps, true);
      } catch (const std::exception& e) {
        t.failure = e.what();
      }
      if (!t.ok || t.max_energy_error > o.energy_tolerance) {
        row["tried"].push_back({{adaptive ? "rtol" : "dt", x},
                                {"max_energy_error", t.ok ? nlohmann::json(t.max_energy_error) : nlohmann::json(nullptr)},
                                {"failure", t.failure}});
        continue;
      }
      row[adaptive ? "rtol" : "dt"] = x;
      row["outer_dt"] = dt;
      row["steps"] = steps;
      row["max_energy_error"] = t.max_energy_error;
      const Spread seconds = TimePerItem(
          [&] {
            (void)Advance(*model.system, *integrator, dt, steps, false);
            return 1L;
          },
          timing);
      row["seconds"] = {{"min", seconds.min * 1e-9}, {"median", seconds.median * 1e-9}, {"max", seconds.max * 1e-9}};
      out["matched_energy_accuracy_s"][name] = seconds.median * 1e-9;
      matched = true;
      break;
    }
    if (!matched) row["skipped"] = "no setting of the ladder kept the energy error below the tolerance";
    out["schemes"][name] = row;
  }
  if (out.contains("matched_energy_accuracy_s") && out["matched_energy_accuracy_s"].contains("velocity_verlet")) {
    const double vv = out["matched_energy_accuracy_s"]["velocity_verlet"];
    for (const auto& [name, s] : out["matched_energy_accuracy_s"].items())
      out["matched_energy_accuracy_vs_verlet_ratio"][name] = s.get<double>() / vv;
  }
  return out;
}

}  // namespace impactlab::bench
