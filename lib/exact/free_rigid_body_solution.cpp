#include "exact/free_rigid_body_solution.h"

#include <algorithm>
#include <array>
#include <boost/math/special_functions/ellint_1.hpp>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <cmath>

#include "core/errors.h"

namespace impactlab {

namespace {
// Appended piece by piece: "(" + std::string made GCC 12 warn (-Wrestrict, a false positive in its inlined memcpy).
std::string FormatVector(const Eigen::Vector3d& x) {
  std::string text = "(";
  for (int i = 0; i < 3; ++i) {
    if (i > 0) text += ", ";
    text += InvalidParameter::FormatNumber(x[i]);
  }
  return text + ")";
}
}  // namespace

FreeRigidBodySolution::FreeRigidBodySolution(const Eigen::Vector3d& inertia, const Eigen::Vector3d& omega0) {
  if (!(inertia.allFinite() && inertia.minCoeff() > 0.0))
    throw InvalidParameter("inertia", FormatVector(inertia), "three finite moments > 0 [kg m^2]");
  if (!omega0.allFinite()) throw InvalidParameter("omega0", FormatVector(omega0), "finite [rad/s]");
  const Eigen::Vector3d l = inertia.cwiseProduct(omega0);
  two_energy_ = omega0.dot(l);
  m2_ = l.squaredNorm();
  std::array<int, 3> order{0, 1, 2};
  std::sort(order.begin(), order.end(), [&](int i, int j) { return inertia[i] < inertia[j]; });
  const int s = order[0], m = order[1], lg = order[2];
  const double is = inertia[s], im = inertia[m], il = inertia[lg];
  if (!(is < im && im < il))
    throw InvalidParameter("inertia", FormatVector(inertia),
                           "three distinct moments (a symmetric top precesses uniformly: no elliptic solution)");
  const double d = m2_ / two_energy_;  // M²/2E ∈ [I_s, I_l]
  if (!(two_energy_ > 0.0) || d == im)
    throw InvalidParameter("omega0", FormatVector(omega0),
                           "a non-zero Ω off the separatrix M^2 = 2E I_m (there the period is infinite)");
  // Differences written as sums of non-negative terms where possible (no cancellation near the axes).
  const double big = std::max(0.0, two_energy_ * il - m2_);    // 2E I_l − M² ≥ 0
  const double small = std::max(0.0, m2_ - two_energy_ * is);  // M² − 2E I_s ≥ 0
  Eigen::Vector3d magnitude;
  double k2 = 0.0;
  if (d > im) {  // about the largest axis: a = s (cn), b = m (sn), c = l (dn)
    a_ = s, b_ = m, c_ = lg;
    magnitude[a_] = std::sqrt(big / (is * (il - is)));
    magnitude[b_] = std::sqrt(big / (im * (il - im)));
    magnitude[c_] = std::sqrt(small / (il * (il - is)));
    lambda_ = std::sqrt((il - im) * small / (is * im * il));
    k2 = (im - is) * big / ((il - im) * small);
  } else {  // about the smallest axis: s and l exchanged
    a_ = lg, b_ = m, c_ = s;
    magnitude[a_] = std::sqrt(small / (il * (il - is)));
    magnitude[b_] = std::sqrt(small / (im * (im - is)));
    magnitude[c_] = std::sqrt(big / (is * (il - is)));
    lambda_ = std::sqrt((im - is) * big / (is * im * il));
    k2 = (il - im) * small / ((im - is) * big);
  }
  k_ = std::sqrt(std::clamp(k2, 0.0, 1.0));
  if (!(k_ < 1.0))
    throw InvalidParameter("omega0", FormatVector(omega0), "off the separatrix M^2 = 2E I_m (k = 1: infinite period)");
  const bool cyclic = (b_ == (a_ + 1) % 3) && (c_ == (b_ + 1) % 3);
  const double eps = cyclic ? 1.0 : -1.0;
  const double sigma_c = omega0[c_] < 0.0 ? -1.0 : 1.0;
  const double sigma_b = eps * sigma_c * (inertia[c_] > inertia[a_] ? 1.0 : -1.0);
  amplitude_[a_] = magnitude[a_];
  amplitude_[b_] = sigma_b * magnitude[b_];
  amplitude_[c_] = sigma_c * magnitude[c_];
  // Phase: am(u₀) = φ₀ with cos φ₀ ∝ Ω_a(0)/A_a, sin φ₀ ∝ Ω_b(0)/(σ_b A_b). On the rotation axis (A_a = A_b = 0)
  // any phase is exact.
  const double cn0 = magnitude[a_] > 0.0 ? omega0[a_] / magnitude[a_] : 1.0;
  const double sn0 = magnitude[b_] > 0.0 ? omega0[b_] / amplitude_[b_] : 0.0;
  const double phi0 = std::atan2(sn0, cn0);
  u0_ = boost::math::ellint_1(k_, phi0);
  period_ = 4.0 * boost::math::ellint_1(k_) / lambda_;
}

Eigen::Vector3d FreeRigidBodySolution::AngularVelocity(double t) const {
  double cn = 0.0, dn = 0.0;
  const double sn = boost::math::jacobi_elliptic(k_, lambda_ * t + u0_, &cn, &dn);
  Eigen::Vector3d omega;
  omega[a_] = amplitude_[a_] * cn;
  omega[b_] = amplitude_[b_] * sn;
  omega[c_] = amplitude_[c_] * dn;
  return omega;
}

}  // namespace impactlab
