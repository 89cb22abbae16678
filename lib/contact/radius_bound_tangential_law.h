// RadiusBoundTangentialLaw: a tangential law of the shared library (contact/tangential: Cundall–Strack and the five
// Mindlin laws) on a contact whose effective radius R* is not a constant of the model but a property of the
// configuration where the contact starts — the rigid bodies of general shape (the 3-D ellipsoid against its wall,
// models/ellipsoid_wall_friction.h; the planar ellipses, planar/planar_tangential_law.h) [Mindlin 1949; Mindlin &
// Deresiewicz 1953; Seed002 §2, eqs. 2–19; docs/theory.md §6].
//
// Why R* is frozen: a Mindlin law stores U(z, δ) with one R* (k_t = 8 G* √(R* δ) = 8 G* a). An R* that followed the
// rolling contact point would change U outside the law's books, so R* is taken at first touch and kept with the
// law's history for the whole contact; the law for a radius is built by a registry factory bound at the edge
// (`TangentialLawForRadius`).
//
// One step from the committed state (R*₀, history h₀, overlap δ₀, elastic normal force F_n,0) to the end of the
// step (δ₁, F_n,1, slip increment Δs in the tangent plane of the normal n):
//   δ₁ ≤ 0  the contact is open: no force; the spring's stored energy U(h₀, δ₀) is released (→ 0 as δ → 0 for the
//           Mindlin laws; the caller books it as friction work, as the sphere contacts do); R* ← 0, h ← 0;
//   δ₁ > 0  R* = R*₀, or the configuration's R* if the contact starts in this step; the law's step
//           (EvaluateTangentialStep: on first touch only the in-contact fraction δ₁/(δ₁ − δ₀) of Δs loads the
//           spring), its continuous end force F_t and the algorithmic force f̄_t whose work over Δs the law books
//           (AlgorithmicTangentialForce, contact/contact_law.h).
// The cap is μ F_n with the elastic normal force the caller passes (never the dashpot). No tangential dashpot.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "contact/tangential/tangential_law.h"

namespace impactlab {

/// Builds the tangential law of one contact for its effective radius R* [m] (a registry factory, bound at the edge).
using TangentialLawForRadius = std::function<std::shared_ptr<const TangentialLaw>(double effective_radius)>;

/// One step of a radius-bound tangential contact.
struct RadiusBoundTangentialStep {
  bool active = false;                                          ///< δ₁ > 0: the law acted in this step
  bool sliding = false;                                         ///< the Coulomb cap was active
  double radius = 0.0;                                          ///< R* after the step [m] (0: open)
  Eigen::Vector3d force = Eigen::Vector3d::Zero();              ///< F_t at the end of the step [N]
  Eigen::Vector3d algorithmic_force = Eigen::Vector3d::Zero();  ///< f̄_t [N]
  double friction_work = 0.0;                                   ///< W_f of the law's step [J]
  double release_energy = 0.0;                                  ///< spring energy released at opening [J]
  double generated_work = 0.0;                                  ///< W_g of the law's step [J], signed
};

class RadiusBoundTangentialLaw {
 public:
  /// `name` as registered; `make` must accept every R* > 0. The law for `reference_radius` (> 0) is built once
  /// here and reused for that R*; every other R* is built on first use and kept in a small per-thread cache
  /// (kCachedLaws laws, least recently built evicted first), so that a contact, whose R* is frozen from first touch
  /// to release, builds its law once and not in every evaluation (a factory call allocates: issue 19, "No heap
  /// allocation inside an implicit step"). A law is a pure function of R*: the cache changes no result. The history
  /// layout and μ are read from the reference law.
  RadiusBoundTangentialLaw(std::string name, TangentialLawForRadius make, double reference_radius);

  /// Laws for other radii kept per thread and per law (its copies share them: the same factory).
  static constexpr int kCachedLaws = 32;

  const std::string& name() const { return name_; }
  double friction_coefficient() const { return mu_; }
  int history_size() const { return law_history_; }
  std::shared_ptr<const TangentialLaw> LawFor(double effective_radius) const { return SharedLawFor(effective_radius); }
  /// Factory calls made for radii other than the reference one, by every thread (for tests and benchmarks).
  long laws_built() const;

  /// U_t of the law's history h at overlap δ for the contact's R* [J] (0 when R* ≤ 0 or δ ≤ 0).
  double StoredEnergy(double radius, std::span<const double> history, double delta) const;

  /// One step (above). `radius0` the committed R* (0: no contact), `radius_at_touch` the R* of this step's
  /// configuration, used when the contact starts. `h1` receives the law's history after the step (h0 and h1
  /// must not alias; both of history_size()).
  RadiusBoundTangentialStep Step(double radius0, double radius_at_touch, double delta0, double delta1,
                                 double normal_force0, double normal_force1, const Eigen::Vector3d& normal,
                                 const Eigen::Vector3d& slip, std::span<const double> h0, std::span<double> h1) const;

 private:
  const std::shared_ptr<const TangentialLaw>& SharedLawFor(double effective_radius) const;
  std::string name_;
  TangentialLawForRadius make_;
  std::uint64_t cache_key_ = 0;  // identifies make_ in the per-thread cache (copied with it)
  std::shared_ptr<std::atomic<long>> built_;  // laws_built(), shared by the copies
  double reference_radius_;
  std::shared_ptr<const TangentialLaw> reference_law_;
  int law_history_ = 0;
  double mu_ = 0.0;
};

}  // namespace impactlab
