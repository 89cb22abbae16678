#include "calibration/calibration_problem.h"

#include <cmath>
#include <sstream>

#include "calibration/damping_coefficient_fit.h"
#include "calibration/ellipsoid_restitution_fit.h"
#include "calibration/sphere_friction_fit.h"
#include "calibration/synthetic_data.h"
#include "core/checks.h"
#include "scenario/scenario.h"

namespace impactlab::calibration {

namespace {

const char* kProblems = "\"ellipsoid_e_cn\", \"sphere_friction\", \"kuwabara_kono\", \"tsuji_alpha\"";

/// Keys every problem tolerates (synthesis keys are read only by --synthesize).
const std::vector<std::string> kSynthesisKeys = {"seed",    "noise",     "true_e_cn",      "theta_deg",
                                                 "true_mu", "true_e_n",  "gamma_deg",      "synthesize_e_n",
                                                 "true_gamma", "true_alpha", "v0_list"};

void RejectUnusedKeys(const ParameterSet& config, bool allow_synthesis_keys) {
  for (const auto& key : config.UnusedKeys()) {
    bool ok = false;
    if (allow_synthesis_keys)
      for (const auto& s : kSynthesisKeys) ok = ok || s == key;
    if (!ok)
      throw InvalidParameter(key, ParameterSet::ToString(config.values().at(key)),
                             "a key of problem \"" + config.GetString("problem") + "\" (docs/calibration.md)");
  }
}

PlanarEllipsoid EllipsoidFrom(const ParameterSet& c) {
  PlanarEllipsoid e;
  e.a = c.GetDouble("a", e.a);
  e.b = c.GetDouble("b", e.b);
  e.c = c.GetDouble("c", e.c);
  e.mass = c.GetDouble("mass", e.mass);
  e.inertia_yy = c.GetDouble("I_yy", 0.0);
  e.Validate();
  return e;
}

PowerLawImpact ImpactFrom(const ParameterSet& c, bool tsuji) {
  PowerLawImpact im;
  im.mass = c.GetDouble("mass", im.mass);
  if (c.Has("E_star") || c.Has("R_star")) {
    if (c.Has("k")) throw InvalidParameter("k", c.GetDouble("k"), "absent when E_star and R_star are given");
    im.k = 4.0 / 3.0 * RequirePositive("E_star", c.GetDouble("E_star")) *
           std::sqrt(RequirePositive("R_star", c.GetDouble("R_star")));
  } else {
    im.k = c.GetDouble("k", im.k);
  }
  im.p = tsuji ? c.GetDouble("p", 1.5) : 1.5;
  im.cvode_rtol = c.GetDouble("cvode_rtol", im.cvode_rtol);
  im.Validate();
  return im;
}

std::string Problem(const ParameterSet& c) {
  const std::string p = c.GetString("problem");
  if (p != "ellipsoid_e_cn" && p != "sphere_friction" && p != "kuwabara_kono" && p != "tsuji_alpha")
    throw InvalidParameter("problem", "\"" + p + "\"", std::string("one of ") + kProblems);
  return p;
}

std::uint64_t Seed(const ParameterSet& c) {
  const double s = c.GetDouble("seed", 1.0);
  if (!(s >= 0.0 && s < 9.0e15 && std::floor(s) == s)) throw InvalidParameter("seed", s, "an integer in [0, 9e15)");
  return static_cast<std::uint64_t>(s);
}

std::string Num(double x) {
  std::ostringstream os;
  os.precision(10);
  os << x;
  return os.str();
}

}  // namespace

ParameterSet LoadCalibrationConfig(const std::string& path) {
  Scenario s = LoadScenario(path);
  if (!s.parameters.Has("problem"))
    throw InvalidParameter("problem", "<missing>", std::string("one of ") + kProblems + " (in " + path + ")");
  return s.parameters;
}

FitResult RunCalibration(const ParameterSet& config, const std::optional<CalibrationData>& data) {
  const std::string problem = Problem(config);
  if (problem == "ellipsoid_e_cn") {
    EllipsoidRestitutionFitOptions o;
    o.ellipsoid = EllipsoidFrom(config);
    o.initial_e_cn = config.GetDouble("initial_e_cn", o.initial_e_cn);
    o.relative_residuals = config.GetBool("relative_residuals", false);
    RejectUnusedKeys(config, true);
    if (!data) throw InvalidParameter("data", "<none>", "a CSV file with columns theta_deg, e_E (--data)");
    return FitEllipsoidContactRestitution(EllipsoidObservations(*data), o);
  }
  if (problem == "sphere_friction") {
    SphereFrictionFitOptions o;
    o.e_n = config.GetDouble("e_n", o.e_n);
    o.fit_e_n = config.GetBool("fit_e_n", false);
    o.initial_mu = config.GetDouble("initial_mu", 0.0);
    RejectUnusedKeys(config, true);
    if (!data) throw InvalidParameter("data", "<none>", "a CSV file with columns gamma_deg, e_t, beta (--data)");
    return FitSphereFriction(*data, o);
  }
  const bool tsuji = problem == "tsuji_alpha";
  DampingFitOptions o;
  o.model = tsuji ? ViscousDampingModel::kTsuji : ViscousDampingModel::kKuwabaraKono;
  o.impact = ImpactFrom(config, tsuji);
  o.initial = config.GetDouble("initial", 0.0);
  std::vector<SpeedRestitutionObservation> obs;
  if (config.Has("v0") || config.Has("target_e")) {
    if (data) throw InvalidParameter("v0/target_e", "given", "absent when a data file is given");
    obs.push_back({RequirePositive("v0", config.GetDouble("v0")),
                   RequireInOpen("target_e", config.GetDouble("target_e"), 0.0, 1.0)});
  }
  RejectUnusedKeys(config, true);
  if (data) obs = SpeedRestitutionObservations(*data);
  if (obs.empty())
    throw InvalidParameter("data", "<none>", "a CSV file with columns v0, e (--data), or keys v0 and target_e");
  return FitDampingCoefficient(obs, o);
}

CalibrationData SynthesizeCalibrationData(const ParameterSet& config, std::vector<std::string>& provenance) {
  const std::string problem = Problem(config);
  const std::uint64_t seed = Seed(config);
  provenance.push_back("synthetic data for problem = \"" + problem +
                       "\", written by `impactlab calibrate CONFIG --synthesize FILE` (validation/calibration/"
                       "synthetic_data.h: mt19937_64 + Box-Muller), seed = " + std::to_string(seed));
  CalibrationData d;
  if (problem == "ellipsoid_e_cn") {
    const PlanarEllipsoid e = EllipsoidFrom(config);
    const double e_cn = config.GetDouble("true_e_cn");
    const double noise = config.GetDouble("noise", 0.01);
    const auto theta = config.GetVector("theta_deg");
    provenance.push_back("true e_cn = " + Num(e_cn) + ", relative Gaussian noise sigma = " + Num(noise) +
                         " on e_E; a, b, c = " + Num(e.a) + ", " + Num(e.b) + ", " + Num(e.c) + "; m = " + Num(e.mass) +
                         ", I_yy = " + Num(e.Iyy()));
    d = SynthesizeEllipsoidData(e, e_cn, theta, noise, seed);
  } else if (problem == "sphere_friction") {
    const double mu = config.GetDouble("true_mu");
    const double e_n = config.GetDouble("true_e_n", config.GetDouble("e_n", 0.9));
    const double noise = config.GetDouble("noise", 0.01);
    const bool with_e_n = config.GetBool("synthesize_e_n", false);
    provenance.push_back("true mu = " + Num(mu) + ", true e_n = " + Num(e_n) +
                         ", absolute Gaussian noise sigma = " + Num(noise) + " on e_t, beta" + (with_e_n ? ", e_n" : ""));
    d = SynthesizeSphereData(mu, e_n, config.GetVector("gamma_deg"), noise, seed, with_e_n);
  } else {
    const bool tsuji = problem == "tsuji_alpha";
    const PowerLawImpact im = ImpactFrom(config, tsuji);
    const double coefficient = config.GetDouble(tsuji ? "true_alpha" : "true_gamma");
    const double noise = config.GetDouble("noise", 0.0);
    provenance.push_back(std::string(tsuji ? "true alpha = " : "true gamma = ") + Num(coefficient) + ", m = " +
                         Num(im.mass) + ", k = " + Num(im.k) + ", p = " + Num(im.p) +
                         ", absolute Gaussian noise sigma = " + Num(noise) + " on e (CVODE rtol " + Num(im.cvode_rtol) + ")");
    d = SynthesizeDampingData(im, tsuji ? ViscousDampingModel::kTsuji : ViscousDampingModel::kKuwabaraKono,
                              coefficient, config.GetVector("v0_list"), noise, seed);
  }
  return d;
}

}  // namespace impactlab::calibration
