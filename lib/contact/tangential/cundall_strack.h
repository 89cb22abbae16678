// CundallStrackLaw: Coulomb slider in series with a linear tangential spring of constant stiffness
// [Cundall & Strack 1979, as reviewed in Seed002 §1]:
//   F_tr = −k_t (δ_t + Δs),   F_t = F_tr if |F_tr| ≤ μ F_n, else μ F_n F_tr/|F_tr|, δ_t = −F_t/k_t
//   U_t = ½ k_t |δ_t|²   (no stiffness change, so generated_work = 0 to round-off)
// k_t [N/m] is given directly; the sphere–wall model derives it from a ratio k_t/k_n (Seed002 quotes 1,
// 2/3 and 2/7) times a reference normal stiffness (docs/tangential-models.md).
#pragma once

#include "contact/tangential/tangential_law.h"

namespace impactlab {

class CundallStrackLaw final : public TangentialLaw {
 public:
  /// k_t > 0 [N/m], μ ≥ 0.
  CundallStrackLaw(double tangential_stiffness, double mu);
  std::string name() const override { return "cundall_strack"; }
  std::string reference() const override { return "Cundall & Strack 1979 linear spring + Coulomb slider (Seed002 §1)"; }
  int history_size() const override { return 3; }
  double StoredEnergy(std::span<const double> z, double delta_n) const override;
  Eigen::Vector3d SpringForce(std::span<const double> z, double delta_n) const override;
  TangentialResponse Evaluate(const TangentialKinematics& kinematics, std::span<const double> z_prev,
                              std::span<double> z_next) const override;
  double friction_coefficient() const override { return mu_; }
  double stiffness() const { return k_; }

 private:
  double k_, mu_;
};

}  // namespace impactlab
