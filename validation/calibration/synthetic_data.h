// Synthetic calibration data with a documented, platform-independent noise generator, so the shipped
// examples (validation/calibration/examples/*.csv) and the round-trip tests are reproducible bit for bit.
//
//   uniform u = (x >> 11) · 2⁻⁵³ with x from std::mt19937_64(seed) (the engine is fully specified by the C++
//   standard; std::normal_distribution is not, so it is not used);  Gaussian z = √(−2 ln(1 − u₁)) cos(2π u₂)
//   (Box–Muller, one z per pair).
//
// Ellipsoid: e_E,i = e_E(θ_i; e_cn) (1 + σ_rel z_i).  Sphere: e_t,i + σ z, β_i + σ z (absolute σ), and e_n,i =
// e_n + σ z when requested.  Damping: e_i = e_sim(c; v₀,i) + σ z (absolute σ).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "calibration/calibration_data.h"
#include "calibration/damping_coefficient_fit.h"
#include "calibration/planar_ellipsoid_restitution.h"

namespace impactlab::calibration {

class GaussianNoise {
 public:
  explicit GaussianNoise(std::uint64_t seed) : engine_(seed) {}
  double Uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double Next();

 private:
  std::mt19937_64 engine_;
};

CalibrationData SynthesizeEllipsoidData(const PlanarEllipsoid& ellipsoid, double e_cn,
                                        const std::vector<double>& theta_deg, double relative_noise,
                                        std::uint64_t seed);
CalibrationData SynthesizeSphereData(double mu, double e_n, const std::vector<double>& gamma_deg, double noise,
                                     std::uint64_t seed, bool with_e_n_column);
CalibrationData SynthesizeDampingData(const PowerLawImpact& impact, ViscousDampingModel model, double coefficient,
                                      const std::vector<double>& v0, double noise, std::uint64_t seed);

}  // namespace impactlab::calibration
