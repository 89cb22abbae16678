// FreeRigidBodySolution: the closed-form angular velocity of the torque-free asymmetric top, in Jacobi elliptic
// functions [Landau & Lifshitz, Mechanics, 3rd ed., §37, eqs. (37.8)–(37.10); docs/rotation.md §2].
//
// Euler's equations I Ω̇ = (I Ω) × Ω conserve 2E = Ωᵀ I Ω and M² = |I Ω|². Sort the moments
// I_s < I_m < I_l (smallest, intermediate, largest) and let D = M²/2E ∈ [I_s, I_l]. For D > I_m (the body turns
// about the axis of the LARGEST moment; L&L's case M² > 2E I₂, with 1 = s, 2 = m, 3 = l):
//
//   Ω_s = σ_a √[(2E I_l − M²) / (I_s (I_l − I_s))] cn u
//   Ω_m = σ_b √[(2E I_l − M²) / (I_m (I_l − I_m))] sn u                          (37.8)
//   Ω_l = σ_c √[(M² − 2E I_s) / (I_l (I_l − I_s))] dn u
//   u = λ t + u₀,  λ = √[(I_l − I_m)(M² − 2E I_s) / (I_s I_m I_l)]               (37.9)
//   k² = (I_m − I_s)(2E I_l − M²) / ((I_l − I_m)(M² − 2E I_s)) < 1               (37.10)
//
// and for D < I_m (about the SMALLEST moment) the same with s and l exchanged everywhere (L&L: "indices 1 and 3
// interchanged"). The "cn" axis a, "sn" axis b and "dn" axis c are then (s, m, l) resp. (l, m, s).
// Signs and phase (L&L fix them by t = 0 at Ω_m = 0; here they come from Ω(0)): σ_a = +1 (cn and sn change sign
// under u → u + 2K, dn does not), σ_c = sign Ω_c(0) (dn > 0 never vanishes), and σ_b from the b-component of
// Euler's equations, Ω̇_b = ε (I_c − I_a) Ω_a Ω_c / I_b with ε = +1 when (a, b, c) is a cyclic permutation
// of the body axes (0, 1, 2) and −1 otherwise:  σ_b = ε σ_c sign(I_c − I_a). The phase is u₀ = F(φ₀, k),
// φ₀ = atan2(σ_b Ω_b(0)/A_b, Ω_a(0)/A_a) (am u₀ = φ₀), F the incomplete elliptic integral of the first kind.
//
// Ω(t) is periodic with period T = 4K(k)/λ (the period of cn and sn; K the complete integral): the
// intermediate-axis component Ω_m changes sign every T/2 — the Dzhanibekov flip when the body starts near
// the intermediate axis (k → 1, T → ∞ on the separatrix D = I_m).
// Boost.Math: jacobi_elliptic(k, u, &cn, &dn) returns sn, ellint_1(k, φ) = F(φ, k), ellint_1(k) = K(k), all with
// the MODULUS k (not the parameter m = k²).
//
// Not covered (InvalidParameter): the separatrix D = I_m and the spherical or symmetric cases where λ or the
// sorting degenerates (two equal moments with D on the equal side: Ω is a uniform precession, use a cosine).
#pragma once

#include <Eigen/Core>

namespace impactlab {

class FreeRigidBodySolution {
 public:
  /// inertia: principal moments (I₁, I₂, I₃) > 0; omega0: Ω(0) in the body frame [rad/s].
  FreeRigidBodySolution(const Eigen::Vector3d& inertia, const Eigen::Vector3d& omega0);

  /// Ω(t) in the body frame [rad/s].
  Eigen::Vector3d AngularVelocity(double t) const;
  /// T = 4K(k)/λ [s]: the period of Ω(t), one full flip-and-return about the intermediate axis.
  double Period() const { return period_; }
  double modulus() const { return k_; }    ///< k
  double frequency() const { return lambda_; }  ///< λ [1/s]
  double energy() const { return two_energy_ / 2.0; }  ///< E = ½ Ωᵀ I Ω [J]
  double momentum_squared() const { return m2_; }       ///< M² = |I Ω|² [(kg m²/s)²]
  int cn_axis() const { return a_; }  ///< body axis (0, 1, 2) carrying cn
  int sn_axis() const { return b_; }  ///< body axis carrying sn (the intermediate axis)
  int dn_axis() const { return c_; }  ///< body axis carrying dn

 private:
  double two_energy_ = 0.0, m2_ = 0.0, k_ = 0.0, lambda_ = 0.0, u0_ = 0.0, period_ = 0.0;
  int a_ = 0, b_ = 1, c_ = 2;
  Eigen::Vector3d amplitude_ = Eigen::Vector3d::Zero();  ///< σ_i A_i on body axis i
};

}  // namespace impactlab
