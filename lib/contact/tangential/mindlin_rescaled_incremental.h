// MindlinRescaledIncrementalLaw: Thornton et al. 2013's incremental Hertz–Mindlin law with the tangential
// force rescaled on normal unloading [Seed002 eqs. 8–11]:
//   ΔF_n ≥ 0:  F_t^i = F_t^{i−1} − k_t^i Δδ_t
//   ΔF_n < 0:  F_t^i = F_t^{i−1} (k_t^i / k_t^{i−1}) − k_t^i Δδ_t,   k_t^i/k_t^{i−1} = √(δ_n^i/δ_n^{i−1})
//   k_t^i = 8 G* √(R δ_n^i);  cap |F_t| ≤ μ F_n;  U_t = |F_t|²/(2 k_t(δ_n))
// (ΔF_n = 0 is treated as loading.) History = the spring force, rotated into the tangent plane each step.
#pragma once

#include "contact/tangential/mindlin_stiffness.h"
#include "contact/tangential/tangential_law.h"

namespace impactlab {

class MindlinRescaledIncrementalLaw final : public TangentialLaw {
 public:
  MindlinRescaledIncrementalLaw(MindlinStiffness stiffness, double mu);
  std::string name() const override { return "mindlin_rescaled_incremental"; }
  std::string reference() const override { return "Thornton, Cummins & Cleary 2013 rescaled incremental law (Seed002 eqs. 8-11)"; }
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
