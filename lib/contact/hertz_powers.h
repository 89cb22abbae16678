// The half-integer and quarter powers of the Hertz family, correctly rounded, without a `pow` call:
//   δ^{3/2} (the Hertz force k δ^{3/2}), δ^{5/2} (its potential k δ^{5/2}/(5/2)), δ^{1/4} and δ^{5/4} (Tsuji's damping
//   for p = 3/2, C = α √(mk) δ^{1/4}, and its dissipation potential Φ = 2α √(mk) δ^{5/4}/(5/2)).
//
// Each starts from IEEE 754's correctly rounded square root s = fl(√δ) and corrects the last rounding with
// error-free transformations: for a product r = fl(a b) the error a b − r is a double, given exactly by one fused
// multiply–add [Dekker 1971; Ogita, Rump & Oishi 2005, Algorithm 3.5 (TwoProduct)], and t = s² − δ likewise. Then
//   δ^{3/2} = δ (s − t/(2s) + O(t²))      = r + (e − ½ t s),          r = fl(δ s), e = δ s − r,
//   δ^{5/2} = (δ² + e₁)(s − t/(2s) + …)   = r + (e₂ + e₁ s − ½ t δ s), r = fl(fl(δ²) s), e₁, e₂ the two errors,
//   δ^{1/4} = ρ − (ρ⁴ − δ)/(4ρ³) (one Newton step from ρ = fl(√fl(√δ))), ρ⁴ − δ from the exact squares of ρ and ρ²,
//   δ^{5/4} = δ (ρ + c) = fl(δ ρ) + (δ ρ − fl(δ ρ)) + δ c, c the Newton correction of δ^{1/4}.
// The corrections are of relative size 2⁻⁵³ and the neglected terms O(2⁻¹⁰⁶); the final addition rounds once.
// Correctly rounded on every sample against a 113-bit reference (__float128, 4·10⁶ samples log-uniform over the range
// below, measured once) and against long double in tests/lib/hertz_powers_test.cpp; glibc's pow is off by up to 0.51
// ulp and fl(δ fl(√δ)) by up to 1.3 ulp. Outside [kHertzPowerLow, kHertzPowerHigh] (far from any physical overlap,
// where the products would leave the normal range) and for δ ≤ 0, NaN or ∞, the functions return std::pow's value.
//
// The product errors come from an FMA instruction or from Dekker's splitting (Veltkamp's split into 26-bit halves):
// both give the exact error a b − fl(a b) (in the range above, where no half underflows), so the two forms return the
// same bits for every δ, not only on the samples tested. FMA instructions are used when the build has them (__FMA__
// or __FP_FAST_FMA) and otherwise, on x86-64, when the CPU has them: the baseline x86-64 build carries a second copy of
// the four powers compiled for FMA (contact/hertz_powers.cpp, without contraction of a b + c), taken after a CPU check
// at start-up. The FMA form shortens each power's dependency chain: 5 % less time per Hertz Simo–Tarnow step on the
// 1-D oscillator, 8–13 % on the 10³ sphere packing (docs/performance.md, "The CPU's FMA in the baseline build");
// tests/lib/hertz_powers_test.cpp compares the two forms bit for bit. Derivation: docs/theory.md §2.
#pragma once

#include <cmath>

namespace impactlab {

/// Whether the product errors come from an FMA (FMA instructions in the build: x86-64 `__FMA__`, or GCC's mark of a
/// fast fma on any target) or from Dekker's splitting.
#if defined(__FMA__) || defined(__FP_FAST_FMA)
inline constexpr bool kHertzPowersUseFma = true;
#else
inline constexpr bool kHertzPowersUseFma = false;
#endif

/// The range of δ on which the corrected powers are used (outside it: std::pow).
inline constexpr double kHertzPowerLow = 1e-100;
inline constexpr double kHertzPowerHigh = 1e+60;

namespace hertz_powers_detail {

/// a b − fl(a b), exactly (a, b and a b in the normal range, far from overflow), from an FMA (kFma) or Dekker's
/// product. std::fma is an instruction only where FMA instructions are enabled (the build, or a function compiled for
/// them: contact/hertz_powers.cpp); elsewhere kFma = true would call the library's fma, exact but slow.
template <bool kFma>
inline double ProductError(double a, double b, double product) {
  if constexpr (kFma) {
    return std::fma(a, b, -product);
  } else {
    // Veltkamp's split and Dekker's product [Dekker 1971]. Without FMA instructions the compiler cannot contract
    // a b ± c here, which would break the split.
    constexpr double kSplit = 134217729.0;  // 2^27 + 1
    const double ca = kSplit * a, a_hi = ca - (ca - a), a_lo = a - a_hi;
    const double cb = kSplit * b, b_hi = cb - (cb - b), b_lo = b - b_hi;
    return ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
  }
}

/// s² − δ for s = fl(√δ), exactly: fl(s²) − δ is exact (Sterbenz: fl(s²) lies within a factor 2 of δ).
template <bool kFma>
inline double SquareRootResidual(double s, double delta) {
  const double p = s * s;
  return (p - delta) + ProductError<kFma>(s, s, p);
}

inline bool InRange(double delta) { return delta >= kHertzPowerLow && delta <= kHertzPowerHigh; }

/// ρ = fl(√fl(√δ)) and the Newton correction c with ρ + c = δ^{1/4} to O(2⁻¹⁰⁶) relative.
template <bool kFma>
inline void QuarterAndCorrection(double delta, double& rho, double& correction) {
  rho = std::sqrt(std::sqrt(delta));
  const double u = rho * rho, u_error = ProductError<kFma>(rho, rho, u);
  const double w = u * u, w_error = ProductError<kFma>(u, u, w);
  const double residual = (w - delta) + (w_error + 2.0 * u * u_error);  // ρ⁴ − δ (w − δ exact: Sterbenz)
  correction = -residual / (4.0 * u * rho);
}

/// The four powers with the product errors of `kFma` (the formulas of the header comment; outside
/// [kHertzPowerLow, kHertzPowerHigh], at δ ≤ 0, NaN or ∞: std::pow's value).
template <bool kFma>
inline double ThreeHalves(double delta) {
  if (!InRange(delta)) return std::pow(delta, 1.5);
  const double s = std::sqrt(delta), r = delta * s;
  const double e = ProductError<kFma>(delta, s, r), t = SquareRootResidual<kFma>(s, delta);
  return r + (e - 0.5 * t * s);
}
template <bool kFma>
inline double FiveHalves(double delta) {
  if (!InRange(delta)) return std::pow(delta, 2.5);
  const double s = std::sqrt(delta), d2 = delta * delta, r = d2 * s;
  const double e1 = ProductError<kFma>(delta, delta, d2), e2 = ProductError<kFma>(d2, s, r);
  const double t = SquareRootResidual<kFma>(s, delta);
  return r + (e2 + e1 * s - 0.5 * t * (delta * s));
}
template <bool kFma>
inline double Quarter(double delta) {
  if (!InRange(delta)) return std::pow(delta, 0.25);
  double rho = 0.0, correction = 0.0;
  QuarterAndCorrection<kFma>(delta, rho, correction);
  return rho + correction;
}
template <bool kFma>
inline double FiveQuarters(double delta) {
  if (!InRange(delta)) return std::pow(delta, 1.25);
  double rho = 0.0, correction = 0.0;
  QuarterAndCorrection<kFma>(delta, rho, correction);
  const double r = delta * rho;
  return r + (ProductError<kFma>(delta, rho, r) + delta * correction);
}

/// True when the CPU has FMA instructions and the build does not (set once at start-up; false before that and off
/// x86-64). Then the four powers below call the FMA copies of contact/hertz_powers.cpp.
extern const bool kCpuFmaBeyondBuild;
double ThreeHalvesFma(double delta);
double FiveHalvesFma(double delta);
double QuarterFma(double delta);
double FiveQuartersFma(double delta);

}  // namespace hertz_powers_detail

/// Whether the product errors come from FMA instructions in this process (the build's or the CPU's).
inline bool HertzPowersUseFma() { return kHertzPowersUseFma || hertz_powers_detail::kCpuFmaBeyondBuild; }

/// δ^{3/2}, correctly rounded.
inline double PowThreeHalves(double delta) {
  using namespace hertz_powers_detail;
  if (!kHertzPowersUseFma && kCpuFmaBeyondBuild) return ThreeHalvesFma(delta);
  return ThreeHalves<kHertzPowersUseFma>(delta);
}

/// δ^{5/2}, correctly rounded.
inline double PowFiveHalves(double delta) {
  using namespace hertz_powers_detail;
  if (!kHertzPowersUseFma && kCpuFmaBeyondBuild) return FiveHalvesFma(delta);
  return FiveHalves<kHertzPowersUseFma>(delta);
}

/// δ^{1/4}, correctly rounded.
inline double PowQuarter(double delta) {
  using namespace hertz_powers_detail;
  if (!kHertzPowersUseFma && kCpuFmaBeyondBuild) return QuarterFma(delta);
  return Quarter<kHertzPowersUseFma>(delta);
}

/// δ^{5/4} = δ (ρ + c), correctly rounded: r = fl(δ ρ) plus its product error plus δ c (Tsuji's dissipation potential
/// Φ ∝ δ^{5/4} for p = 3/2).
inline double PowFiveQuarters(double delta) {
  using namespace hertz_powers_detail;
  if (!kHertzPowersUseFma && kCpuFmaBeyondBuild) return FiveQuartersFma(delta);
  return FiveQuarters<kHertzPowersUseFma>(delta);
}

}  // namespace impactlab
