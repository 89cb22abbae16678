// EllipsoidWallFriction: a tangential law of the shared library (contact/tangential: Cundall–Strack and the five
// Mindlin laws) at the contact of the 3-D ellipsoid with the wall (models/ellipsoid_wall_impact_3d.h) — its history
// layout in MechanicalState::z, its books and one step of the law [Mindlin 1949; Mindlin & Deresiewicz 1953;
// Seed002 §2, eqs. 2–19; docs/theory.md §6; docs/rotation.md §7].
//
// What the law is fed:
//   n              the wall normal e_z (fixed: the tangent plane is the wall plane, Δs has no z-component);
//   Δs             the slip increment of the contact point (the section centroid x̄) of the step, from the model;
//   δ₀, δ₁         the overlap at the committed step (kept in z) and at the end of the step (first touch: only the
//                  in-contact fraction δ₁/(δ₁ − δ₀) of Δs loads the spring, EvaluateTangentialStep);
//   F_n            the elastic ECC normal force K_n S_n at the end of the step (cap μ K_n S_n: never the dashpot,
//                  as the sphere and planar contacts, contact/contact_law.h), the committed one for ΔF_n;
//   R*             the contact's effective radius, ρ_G = abc/h² = √(R₁R₂) (the Gaussian radius of the ellipsoid at
//                  its support point), taken at the configuration where the contact starts and frozen in z for the
//                  whole contact: k_t = 8 G* √(R* δ) (the step, the freezing of R* and why:
//                  contact/radius_bound_tangential_law.h, shared with the planar ellipses).
// No tangential dashpot (the laws have none).
//
// History layout (z), kHistory + the law's entries:
//   [0] δ₀  overlap at the last committed step [m]        [1] elastic F_n there [N]
//   [2] W_f friction work since t = 0 [J] (cap removal + the spring energy released when the contact opens)
//   [3] W_g energy the law generated since t = 0 [J], signed (the Mindlin integral laws; docs/theory.md §6)
//   [4] R*  [m] (0: no contact)
//   [5 … 11] the committed configuration (x_G, quaternion): the explicit schemes measure Δs from it
//   [12 …]  the law's history
// A committed step: in contact W_f += the law's friction work, W_g += its generated work, F_n,prev ← F_n(δ₁);
// separated: W_f += U_t(z, δ₀) if the contact was active, the law's history and R* ← 0, F_n,prev ← 0; then δ₀ ← δ₁.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>

#include "contact/radius_bound_tangential_law.h"

namespace impactlab {

/// One step of the ellipsoid's tangential contact.
struct EllipsoidWallFrictionStep {
  bool active = false;                                         ///< δ₁ > 0
  bool sliding = false;                                        ///< the Coulomb cap was active
  Eigen::Vector3d force = Eigen::Vector3d::Zero();             ///< F_t at the end of the step (continuous) [N]
  Eigen::Vector3d algorithmic_force = Eigen::Vector3d::Zero(); ///< f̄_t (AlgorithmicTangentialForce) [N]
  double friction_work = 0.0;                                  ///< W_f of the step [J]
  double generated_work = 0.0;                                 ///< W_g of the step [J]
};

class EllipsoidWallFriction {
 public:
  static constexpr int kDeltaPrev = 0, kNormalForcePrev = 1, kFrictionWork = 2, kGeneratedWork = 3, kRadius = 4,
                       kConfiguration = 5, kLaw = 12;
  static constexpr int kMaxLawHistory = 16;

  /// `name` as registered; `make` must accept every R* > 0. `reference_radius` > 0: the R* whose law is built
  /// once here (the radius at the initial configuration), every other R* is built on use.
  EllipsoidWallFriction(std::string name, TangentialLawForRadius make, double reference_radius);

  const std::string& name() const { return law_.name(); }
  double friction_coefficient() const { return law_.friction_coefficient(); }
  int history_size() const { return kLaw + law_.history_size(); }
  std::shared_ptr<const TangentialLaw> LawFor(double effective_radius) const { return law_.LawFor(effective_radius); }

  /// U_t of the history z at overlap δ [J] (0 without a contact).
  double StoredEnergy(const Eigen::VectorXd& z, double delta) const;
  double FrictionWork(const Eigen::VectorXd& z) const { return z[kFrictionWork]; }
  double GeneratedWork(const Eigen::VectorXd& z) const { return z[kGeneratedWork]; }

  /// One step from the committed history z0: end overlap δ₁ [m], elastic normal force there [N], slip increment
  /// Δs [m] (tangential), `radius_at_touch` the R* to freeze if the contact starts in this step. With z1 the
  /// committed step is booked into it (z1 ← z0 with the books, R* and the law's history of the step; the
  /// configuration entries are the caller's); without, only the forces are computed.
  EllipsoidWallFrictionStep Step(double delta1, double normal_force1, const Eigen::Vector3d& slip,
                                 double radius_at_touch, const Eigen::VectorXd& z0, Eigen::VectorXd* z1) const;

 private:
  RadiusBoundTangentialLaw law_;
};

}  // namespace impactlab
