// MindlinScaledIntegralLaw: the integral Hertz–Mindlin law with the tangential stiffness scaled by 2/3
// [Di Maio & Di Renzo 2004; Di Renzo & Di Maio 2005; Seed002 §3.2.2]:
//   F_tr = −(2/3) k_t^c √δ_n δ_t,  k_t^c = 8 G* √R;  cap μ F_n;  δ_t ← −F_t/k;  U_t = ½ k(δ_n) |δ_t|²
// With the factor 2/3 both K_n = (4/3)E*√R and (2/3)k_t^c are secant coefficients: the integral force then
// equals Mindlin's incremental no-slip force (2/3) k_t δ_t under proportional loading δ_t ∝ δ_n.
#pragma once

#include "contact/tangential/mindlin_stiffness.h"
#include "contact/tangential/tangential_law.h"

namespace impactlab {

class MindlinScaledIntegralLaw final : public TangentialLaw {
 public:
  static constexpr double kScale = 2.0 / 3.0;  ///< Di Maio & Di Renzo's factor
  MindlinScaledIntegralLaw(MindlinStiffness stiffness, double mu);
  std::string name() const override { return "mindlin_scaled_integral"; }
  std::string reference() const override { return "Di Maio & Di Renzo 2004 scaled integral law, 2/3 k_t (Seed002 3.2.2)"; }
  int history_size() const override { return 3; }
  double StoredEnergy(std::span<const double> z, double delta_n) const override;
  Eigen::Vector3d SpringForce(std::span<const double> z, double delta_n) const override;
  TangentialResponse Evaluate(const TangentialKinematics& kinematics, std::span<const double> z_prev,
                              std::span<double> z_next) const override;
  double friction_coefficient() const override { return mu_; }

 private:
  MindlinStiffness k_t_;
  double mu_;
};

}  // namespace impactlab
