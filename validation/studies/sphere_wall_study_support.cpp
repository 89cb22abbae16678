#include "studies/sphere_wall_study_support.h"

#include <cmath>

#include "run/scenario_runner.h"

namespace impactlab {

Scenario ThorntonScenario(double poisson, double gamma_deg, double mu, const std::string& law, double e_n) {
  Scenario s;
  s.path = "<seed002 Table 2>";
  s.model = "sphere_wall";
  ParameterSet& p = s.parameters;
  p.Set("radius", 0.025);
  p.Set("density", 2650.0);
  p.Set("E_sphere", 7.0e10);
  p.Set("E_wall", 7.0e10);
  p.Set("poisson", poisson);
  p.Set("mu", mu);
  p.Set("e_n", e_n);
  p.Set("speed", 5.0);
  p.Set("theta_deg", 180.0 - gamma_deg);
  p.Set("tangential_law", law);
  p.Set("dt", 1.0e-7);  // ~1200 steps per contact (t_c ≈ 1.2e-4 s)
  p.Set("t_end", 1.0e-3);
  p.Set("stop_after_separation", 1.0e-6);
  return s;
}

Scenario KharazScenario(double theta_deg, const std::string& law, double e_n) {
  Scenario s;
  s.path = "<seed002 Table 3>";
  s.model = "sphere_wall";
  ParameterSet& p = s.parameters;
  p.Set("radius", 2.5e-3);
  p.Set("density", 4000.0);
  p.Set("E_sphere", 3.8e11);
  p.Set("nu_sphere", 0.23);
  p.Set("E_wall", 7.0e10);
  p.Set("nu_wall", 0.25);
  p.Set("mu", 0.092);
  p.Set("e_n", e_n);
  p.Set("speed", 3.9);
  p.Set("theta_deg", theta_deg);
  p.Set("tangential_law", law);
  p.Set("dt", 1.0e-8);  // ~1300 steps per contact (t_c ≈ 1.3e-5 s)
  p.Set("t_end", 1.0e-4);
  p.Set("stop_after_separation", 1.0e-7);
  return s;
}

nlohmann::json RunSphereWall(const Scenario& scenario, const std::string& integrator, const std::string& out_dir) {
  RunRequest r;
  r.scenario = scenario;
  r.integrators = {integrator};
  r.out_dir = out_dir;
  return RunScenario(r)["runs"][0];
}

double JsonNumber(const nlohmann::json& run, const std::string& key) {
  return run.contains(key) && run[key].is_number() ? run[key].get<double>() : std::nan("");
}

}  // namespace impactlab
