// ContactCentricDamping: viscous normal damping acting on the contact-point normal velocity v_cn, at the
// same point as the elastic force (ECC: the section centroid) [Seed000 eqs. (33), (36), (37);
// docs/theory.md §3 "adaptive damping", §12.2, §12.5].
//
//   F_damp = −η v_cn n,   P_diss = η v_cn² ≥ 0,   ξ = ξ_L(e_cn) = −ln e/√(π² + ln² e)  (eq. 23)
//   adaptive              η(t) = 2ξ √(m_n*(t) k_eff(t))  (eq. 33; m_n* from the current lever to x̄)
//   fixed_reduced_mass    η(t) = 2ξ √(m k_eff(t))        classical DEM: reduced mass (= m against a wall)
//   fixed_initial_mass    η(t) = 2ξ √(m_n*(t₀) k_eff(t)) m_n* frozen at its first-contact value (eq. 14)
// In all three k_eff is the evolving ECC stiffness (so only the mass differs); η is finite at onset.
// The law is exact (e_cn = target) only when m_n* is constant during contact (aligned impacts).
#pragma once

#include <string>

namespace impactlab {

enum class DampingMassMode { kAdaptive, kFixedReducedMass, kFixedInitialMass };

/// "adaptive" | "fixed_reduced_mass" | "fixed_initial_mass"; throws InvalidParameter("damping", ...).
DampingMassMode ParseDampingMassMode(const std::string& name);
std::string ToString(DampingMassMode mode);

class ContactCentricDamping final {
 public:
  /// e_cn ∈ (0, 1] (1 = undamped); fixed_mass [kg] > 0 is used by the two fixed modes.
  ContactCentricDamping(double e_cn, DampingMassMode mode, double fixed_mass);
  double damping_ratio() const { return xi_; }
  DampingMassMode mode() const { return mode_; }
  /// η [N·s/m] for the current projected mass m_n* [kg] and stiffness k_eff [N/m].
  double Coefficient(double m_n_star, double k_eff) const;

 private:
  double xi_;
  DampingMassMode mode_;
  double fixed_mass_;
};

}  // namespace impactlab
