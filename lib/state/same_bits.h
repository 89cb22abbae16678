// SameBits: bitwise equality of doubles and of vectors of doubles, the test behind every "computed at exactly this
// input" reuse (the rollback copy of Integrator::Step, the converged evaluation of the midpoint family, the
// step-start memo of the quotient schemes). Stricter than ==: +0.0 and −0.0 differ and a NaN equals the same NaN,
// so a value that passes can stand in for the other bit for bit.
#pragma once

#include <Eigen/Core>
#include <bit>
#include <cstdint>
#include <cstring>

namespace impactlab {

inline bool SameBits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

inline bool SameBits(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size()) return false;
  const double* x = a.data();
  const double* y = b.data();
  constexpr Eigen::Index kSmallSize = 8;
  if (a.size() > kSmallSize)  // memcmp compares bytes, i.e. bit patterns; vectorised for long vectors
    return std::memcmp(x, y, sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
  for (Eigen::Index i = 0; i < a.size(); ++i)  // a plain loop: a memcmp call costs more than a few doubles
    if (!SameBits(x[i], y[i])) return false;
  return true;
}

/// The same for fixed-size vectors (the small-system path of the midpoint schemes).
template <int N>
inline bool SameBits(const Eigen::Matrix<double, N, 1>& a, const Eigen::Matrix<double, N, 1>& b) {
  for (int i = 0; i < N; ++i)
    if (!SameBits(a[i], b[i])) return false;
  return true;
}

}  // namespace impactlab
