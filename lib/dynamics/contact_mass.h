// Contact-centric dynamics: the inverse effective mass tensor at a contact point and the quantities derived
// from it [Seed000 eqs. (10)–(12), (15); docs/theory.md §4].
//
//   M_eff⁻¹ = (1/m_A + 1/m_B) E₃ − [r_A]× I_A⁻¹ [r_A]× − [r_B]× I_B⁻¹ [r_B]×     (eq. 10)
//   m_n*    = (nᵀ M_eff⁻¹ n)⁻¹                                                 (eq. 12, "breathing mass")
//   κ       = |tᵀ M_eff⁻¹ n| / √((tᵀ M_eff⁻¹ t)(nᵀ M_eff⁻¹ n))                 (eq. 11, coupling index)
//   ω_max²  = k_eff / m_n*                                                     (eq. 15, frictionless)
//
// r_i = x_c − x_i is the lever arm from the centre of mass of body i to the contact point; I_i the
// world-frame inertia tensor about the centre (I = R I_body Rᵀ). A fixed wall has 1/m = 0 and I⁻¹ = 0.
// M_eff⁻¹ is symmetric positive definite. Units: kg⁻¹ (M_eff⁻¹), kg (m_n*), rad/s (ω_max).
#pragma once

#include <Eigen/Core>

namespace impactlab {

/// A rigid body as seen from a contact: mass m [kg] > 0, world inertia I [kg·m²] (SPD), lever r [m].
struct ContactBody {
  double mass = 1.0;
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity();
  Eigen::Vector3d lever = Eigen::Vector3d::Zero();
};

/// eq. (10) for one body against a fixed wall: (1/m) E₃ − [r]× I⁻¹ [r]×.
Eigen::Matrix3d InverseEffectiveMassBodyWall(const ContactBody& body);
/// eq. (10) for two bodies.
Eigen::Matrix3d InverseEffectiveMassTwoBodies(const ContactBody& a, const ContactBody& b);
/// eq. (12): m_n* = (nᵀ M_eff⁻¹ n)⁻¹ (n unit).
double ProjectedNormalMass(const Eigen::Matrix3d& inverse_effective_mass, const Eigen::Vector3d& n);
/// eq. (11): κ for unit normal n and unit tangent t (t ⟂ n). 0 if tᵀM⁻¹t = 0.
double CouplingIndex(const Eigen::Matrix3d& inverse_effective_mass, const Eigen::Vector3d& n,
                     const Eigen::Vector3d& t);
/// eq. (15): ω_max = √(k_eff/m_n*) [rad/s].
double CriticalContactFrequency(double k_eff, double m_n_star);

/// Skew matrix [r]× with [r]× v = r × v.
Eigen::Matrix3d CrossMatrix(const Eigen::Vector3d& r);

}  // namespace impactlab
