// MindlinIntegralLaw: the "integral" Hertz–Mindlin no-slip law of Tsuji et al. 1992 [Seed002 eqs. 16–19]:
//   δ_t = ∫ v_s dt (accumulated since first contact, reset to consistency on slip)
//   F_tr = −k_t^c √δ_n δ_t,   k_t^c = 8 G* √R  (so k_t = 8 G* √(R δ_n), Mindlin's no-slip tangent stiffness)
//   F_t = F_tr if |F_tr| ≤ μ F_n, else μ F_n F_tr/|F_tr|,  δ_t ← −F_t/k_t
//   U_t = ½ k_t(δ_n) |δ_t|²
// Tangential damping γ_t of eq. 17 is not included (Seed002 uses γ_t = 0 in every figure).
// Because k_t depends on δ_n at fixed δ_t, the law does the non-conservative work ½ k_t′(δ_n) δ̇_n |δ_t|² dt
// [docs/theory.md §6]; it is reported as generated_work and explains Seed002's spurious β < −1.
#pragma once

#include "contact/tangential/mindlin_stiffness.h"
#include "contact/tangential/tangential_law.h"

namespace impactlab {

class MindlinIntegralLaw final : public TangentialLaw {
 public:
  MindlinIntegralLaw(MindlinStiffness stiffness, double mu);
  std::string name() const override { return "mindlin_integral"; }
  std::string reference() const override { return "Tsuji, Tanaka & Ishida 1992 integral Hertz-Mindlin (Seed002 eqs. 16-19)"; }
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
