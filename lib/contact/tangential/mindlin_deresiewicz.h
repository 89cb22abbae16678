// MindlinDeresiewiczLaw: incremental Mindlin–Deresiewicz micro-slip law in the Thornton–Randall (1988) form
// [Seed002 eqs. 2–4; docs/theory.md §6, with the 2 μ F_n denominators of eqs. 3–4 — see [A] there]:
//   Δτ = 8 G* a θ Δx ± μ (1 − θ) ΔF_n      (+ loading / reloading, − unloading),  a = √(R δ_n)
//   loading   (first path, Δx > 0):  θ³ = 1 − (τ + μΔF_n)/(μ F_n)
//   unloading (Δx < 0):              θ³ = 1 − (τ* − τ + 2μΔF_n)/(2μ F_n)
//   reloading (Δx > 0 after unloading): θ³ = 1 − (τ − τ** + 2μΔF_n)/(2μ F_n)
//   θ³ ≤ 0: gross slip (θ = 0); "point B": ΔF_n > 0 and |Δx| < μΔF_n/k_t ⇒ θ = 1 (k_t = 8G*a)
//   reversal forces follow F_n: τ* ← τ* + μΔF_n, τ** ← τ** − μΔF_n  [Thornton 1991; Di Renzo & Di Maio
//   2004, as restated in docs/theory.md §6 — signs not verified against the originals]
//   cap |τ| ≤ μ F_n
// At constant F_n this integrates to Mindlin's closed forms: τ = μF_n[1 − (1 − 16G*a x/(3μF_n))^{3/2}] on
// loading and the Masing unloading curve τ = τ* − 2μF_n[1 − (1 − 8G*a(x* − x)/(3μF_n))^{3/2}].
//
// Planar law: τ and x are measured along the axis e fixed at first loading (the first Δs direction, rotated
// into the current tangent plane each step), F_t = −τ e; the part of Δs normal to e is not used (exact for
// the planar impacts of Seed002; documented limitation in 3D).
// History (8 entries): F_t (3), e (3), reversal force τ* or τ** [N], branch (0 none, 1 loading, 2 unloading,
// 3 reloading). Energy: U = τ²/(2 k_t) and generated_work = 0; all of U_prev + work_in − U_new is reported
// as friction work (micro- and gross slip). U is not the true stored energy of a partially slipped contact,
// so single steps of unloading can show negative friction work; sums over closed cycles are the hysteresis.
// A slip → stick switch inside the step is not located here (TangentialKinematics::start is ignored): the
// transition from gross slip is the per-step point-B rule above, an explicit update in θ, not a return mapping
// (docs/theory.md §6, "Switches inside a step").
#pragma once

#include "contact/tangential/mindlin_stiffness.h"
#include "contact/tangential/tangential_law.h"

namespace impactlab {

class MindlinDeresiewiczLaw final : public TangentialLaw {
 public:
  MindlinDeresiewiczLaw(MindlinStiffness stiffness, double mu);
  std::string name() const override { return "mindlin_deresiewicz"; }
  std::string reference() const override {
    return "Mindlin & Deresiewicz 1953 via Thornton & Randall 1988 (Seed002 eqs. 2-4, 2 mu F_n denominators)";
  }
  int history_size() const override { return 8; }
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
