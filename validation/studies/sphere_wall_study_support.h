// Shared set-up of the sphere–wall studies (seed 002 and Chung & Ooi): scenarios for the Thornton et al.
// 2013 (Seed002 Table 2) and Kharaz et al. 2001 (Seed002 Table 3) parameter sets, and a one-run helper.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "scenario/scenario.h"

namespace impactlab {

/// Seed002 Table 2: E = 70 GPa for sphere and wall, ν (both), d = 50 mm, ρ = 2650, v = 5 m/s.
/// `gamma_deg` is Seed002's impact angle (180° = normal): θ = 180° − γ.
Scenario ThorntonScenario(double poisson, double gamma_deg, double mu, const std::string& law, double e_n = 1.0);
/// Seed002 Table 3 (Kharaz et al. 2001): Al₂O₃ sphere on glass, μ = 0.092, v = 3.9 m/s; θ from the normal.
Scenario KharazScenario(double theta_deg, const std::string& law, double e_n);
/// Runs one integrator; returns the run's summary JSON (RunScenario's runs[0]). With `out_dir` non-empty the
/// time series goes to <out_dir>/<integrator>.csv.
nlohmann::json RunSphereWall(const Scenario& scenario, const std::string& integrator, const std::string& out_dir = "");
/// "ψ" etc. as double, NaN for null.
double JsonNumber(const nlohmann::json& run, const std::string& key);

}  // namespace impactlab
