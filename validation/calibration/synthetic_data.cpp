#include "calibration/synthetic_data.h"

#include <cmath>
#include <numbers>

#include "calibration/sphere_rigid_friction.h"
#include "core/checks.h"

namespace impactlab::calibration {

double GaussianNoise::Next() {
  const double u1 = Uniform(), u2 = Uniform();
  return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

CalibrationData SynthesizeEllipsoidData(const PlanarEllipsoid& ellipsoid, double e_cn,
                                        const std::vector<double>& theta_deg, double relative_noise,
                                        std::uint64_t seed) {
  ellipsoid.Validate();
  RequireInClosed("true_e_cn", e_cn, 0.0, 1.0);
  RequireNonNegative("noise", relative_noise);
  GaussianNoise noise(seed);
  CalibrationData d({"theta_deg", "e_E"});
  for (double th : theta_deg) {
    const auto g = FirstContactGeometry(ellipsoid, th * std::numbers::pi / 180.0);
    const double e = EnergyRestitution(e_cn, g.normal_mass / ellipsoid.mass);
    d.AddRow({th, e * (1.0 + relative_noise * noise.Next())});
  }
  return d;
}

CalibrationData SynthesizeSphereData(double mu, double e_n, const std::vector<double>& gamma_deg, double noise_sigma,
                                     std::uint64_t seed, bool with_e_n_column) {
  RequireNonNegative("true_mu", mu);
  RequireInClosed("true_e_n", e_n, 0.0, 1.0);
  RequireNonNegative("noise", noise_sigma);
  GaussianNoise noise(seed);
  CalibrationData d(with_e_n_column ? std::vector<std::string>{"gamma_deg", "e_t", "beta", "e_n"}
                                    : std::vector<std::string>{"gamma_deg", "e_t", "beta"});
  for (double g : gamma_deg) {
    RequireInLeftOpen("gamma_deg", g, 90.0, 180.0);
    const auto m = RigidSphereTangentialRestitution(mu, e_n, AbsCotImpactAngle(g));
    const double et = m.e_t + noise_sigma * noise.Next();
    const double beta = m.beta + noise_sigma * noise.Next();
    if (with_e_n_column) d.AddRow({g, et, beta, e_n + noise_sigma * noise.Next()});
    else d.AddRow({g, et, beta});
  }
  return d;
}

CalibrationData SynthesizeDampingData(const PowerLawImpact& impact, ViscousDampingModel model, double coefficient,
                                      const std::vector<double>& v0, double noise_sigma, std::uint64_t seed) {
  RequireNonNegative("noise", noise_sigma);
  GaussianNoise noise(seed);
  CalibrationData d({"v0", "e"});
  for (double v : v0) d.AddRow({v, SimulatedRestitution(impact, model, coefficient, v) + noise_sigma * noise.Next()});
  return d;
}

}  // namespace impactlab::calibration
