// BallOnPlate: a ball (mass m_b) falling onto a plate (mass m_p) that rests on a linear support spring k_s,
// along one vertical axis, no gravity (the impact is short against the fall):
//
//   q = (x_b, x_p) [m] (displacements, up positive),  v = (v_b, v_p) [m/s];  x_b(0) = x_p(0) = 0,
//   v_b(0) = −v₀, v_p(0) = 0: the bodies touch at t = 0 and the ball moves into the plate.
//   contact overlap  δ = x_p − x_b  (> 0 in contact),  δ̇ = v_p − v_b;
//   V(q) = W(δ) + ½ k_s x_p²,   m_b ẍ_b = +F_n,   m_p ẍ_p = −F_n − k_s x_p,   F_n = W′(δ) + C(δ) δ̇.
//
// W is any normal law of the registry and C any damping law (bound to the reduced mass m_b m_p/(m_b + m_p),
// the mass of the relative motion). With k_s = 0 (free plate) and an undamped law this is the elastic
// collinear two-body impact: after separation v_b = −v₀ (m_b − m_p)/(m_b + m_p), v_p = −2 m_b v₀/(m_b + m_p)
// [Stronge 2000, Impact Mechanics, ch. 2, with e = 1] — the reference the example checks. Exposes the
// contact and the spring as contact terms (system/pair_potential_structure.h) so that the energy-conserving
// schemes run on it; the spring is a bilateral term (it acts for both signs of x_p), so V, ∇V, ∇²V are
// written out, not taken from the structure helpers, which count a term only while its δ > 0.
#pragma once

#include <memory>

#include "contact/damping/damping_law.h"
#include "contact/normal_contact_law.h"
#include "system/constant_mass_system.h"
#include "system/pair_potential_structure.h"

class BallOnPlate final : public impactlab::ConstantMassSystem, public impactlab::PairPotentialStructure {
 public:
  struct Parameters {
    double ball_mass = 0.011728;  ///< m_b [kg] > 0
    double plate_mass = 0.05;     ///< m_p [kg] > 0
    double support_stiffness = 0; ///< k_s [N/m] ≥ 0 (0: free plate)
    double impact_velocity = 1;   ///< v₀ [m/s] > 0
  };
  /// Throws InvalidParameter (m_ball, m_plate, k_support, v0) on bad values.
  BallOnPlate(Parameters p, std::shared_ptr<const impactlab::NormalContactLaw> law,
              std::shared_ptr<const impactlab::DampingLaw> damping);

  std::string name() const override { return "ball_on_plate"; }
  impactlab::MechanicalState InitialState() const override;
  Eigen::VectorXd MassDiagonal() const override { return Eigen::Vector2d(p_.ball_mass, p_.plate_mass); }
  double Potential(const Eigen::VectorXd& q) const override;
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const override;
  Eigen::SparseMatrix<double> PotentialHessian(const Eigen::VectorXd& q) const override;
  Eigen::SparseMatrix<double> DampingMatrix(const Eigen::VectorXd& q) const override;
  bool velocity_dependent_forces() const override { return damped_; }
  const std::vector<impactlab::ContactTerm>& ContactTerms() const override { return terms_; }
  int num_contacts() const override { return 1; }
  void ContactOverlaps(const impactlab::MechanicalState& s, std::span<double> overlap,
                       std::span<double> overlap_rate) const override;
  const Parameters& parameters() const { return p_; }
  /// ½ m_p v_p² + ½ k_s x_p² [J].
  double PlateEnergy(const impactlab::MechanicalState& s) const;

 private:
  Parameters p_;
  bool damped_;
  std::vector<impactlab::ContactTerm> terms_;
};
