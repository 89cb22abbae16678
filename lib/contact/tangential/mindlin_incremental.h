// MindlinIncrementalLaw: the incremental Hertz–Mindlin no-slip law of Oda & Iwashita 1999
// [Seed002 eqs. 14–15]:
//   F_t^i = F_t^{i−1} − k_t(δ_n^{i−1}) Δδ_t,   k_t(δ_n) = 8 G* √(R δ_n)   (explicit in δ_n, first order)
//   cap |F_t| ≤ μ F_n;  U_t = |F_t|²/(2 k_t(δ_n))
// History = the spring force F_t (rotated into the current tangent plane each step). The normal force is
// the integral Hertz law: Seed002's incremental eqs. 12–13 with the secant ΔF_n = K_n Δ(δ_n^{3/2}) are
// identical to it [docs/theory.md §6].
#pragma once

#include "contact/tangential/mindlin_stiffness.h"
#include "contact/tangential/tangential_law.h"

namespace impactlab {

class MindlinIncrementalLaw final : public TangentialLaw {
 public:
  MindlinIncrementalLaw(MindlinStiffness stiffness, double mu);
  std::string name() const override { return "mindlin_incremental"; }
  std::string reference() const override { return "Oda & Iwashita 1999 incremental Hertz-Mindlin (Seed002 eqs. 14-15)"; }
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
