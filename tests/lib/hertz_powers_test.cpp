// contact/hertz_powers.h: δ^{3/2}, δ^{5/2}, δ^{1/4}, δ^{5/4} correctly rounded where they are used, checked
// against a long double reference (64-bit significand: its own error is ≈ 2⁻¹¹ of a double's ulp, so the correctly
// rounded double is known except within that distance of a rounding midpoint; those samples are skipped).
// The Hertz members of the laws (PowerLaw with p = 3/2, Tsuji damping with p = 3/2, C and Φ) return these powers.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "contact/damping/viscous_dampers.h"
#include "contact/hertz_powers.h"
#include "contact/power_law.h"

using namespace impactlab;

namespace {

struct Reference {
  double rounded = 0.0;     ///< the double nearest to the reference value
  bool decidable = false;   ///< the reference is farther than kMidpointMargin ulp from a rounding midpoint
};

constexpr long double kMidpointMargin = 1.0L / 256.0L;  // ulp of the double; the reference's error is ≈ 1/2048

Reference CorrectlyRounded(long double exact) {
  const double r = static_cast<double>(exact);
  const long double ulp = static_cast<long double>(std::nextafter(r, std::numeric_limits<double>::infinity())) - r;
  const long double off = std::fabs((exact - static_cast<long double>(r)) / ulp);  // ≤ 1/2 after rounding
  return {r, 0.5L - off > kMidpointMargin};
}

/// Samples log-uniform over [10^lo, 10^hi]; returns the number of decidable samples, counts the mismatches.
template <class Ours>
long CountMismatches(Ours ours, long double exponent, double lo, double hi, long samples, long& mismatches,
                     long& pow_mismatches) {
  std::mt19937_64 rng(20261205);
  std::uniform_real_distribution<double> decade(lo, hi);
  long decidable = 0;
  mismatches = pow_mismatches = 0;
  for (long k = 0; k < samples; ++k) {
    const double delta = std::pow(10.0, decade(rng));
    const Reference ref = CorrectlyRounded(std::pow(static_cast<long double>(delta), exponent));
    if (!ref.decidable) continue;
    ++decidable;
    if (ours(delta) != ref.rounded) ++mismatches;
    if (std::pow(delta, static_cast<double>(exponent)) != ref.rounded) ++pow_mismatches;
  }
  return decidable;
}

}  // namespace

TEST_CASE("Hertz powers d^(3/2), d^(5/2), d^(1/4), d^(5/4) correctly rounded in 1e-100..1e60 (long double ref.)") {
  constexpr long kSamples = 200000;
  struct Power {
    const char* name;
    double (*ours)(double);
    long double exponent;
  };
  const Power powers[] = {{"d^(3/2)", PowThreeHalves, 1.5L},
                          {"d^(5/2)", PowFiveHalves, 2.5L},
                          {"d^(1/4)", PowQuarter, 0.25L},
                          {"d^(5/4)", PowFiveQuarters, 1.25L}};
  // Physical overlaps (1e-12 .. 1e-2 m) densely, then the whole range of the corrected formulas.
  for (const std::pair<double, double>& range : {std::pair{-12.0, -2.0}, std::pair{-100.0, 60.0}}) {
    const double lo = range.first, hi = range.second;  // (not a structured binding: CAPTURE's lambda reads lo)
    for (const Power& power : powers) {
      CAPTURE(lo);
      const std::string name = power.name;
      CAPTURE(name);
      long mismatches = 0, pow_mismatches = 0;
      const long n = CountMismatches(power.ours, power.exponent, lo, hi, kSamples, mismatches, pow_mismatches);
      CHECK(n > kSamples * 99 / 100);
      CHECK(mismatches == 0);
      MESSAGE(name << ": std::pow not correctly rounded in " << pow_mismatches << " of " << n);
    }
  }
  // The one-rounding formula without the correction, fl(δ·fl(√δ)), is not correctly rounded (≈ 1/4 of the samples):
  // the check above can fail.
  long naive = 0, naive_pow = 0;
  CountMismatches([](double d) { return d * std::sqrt(d); }, 1.5L, -12.0, -2.0, 20000, naive, naive_pow);
  CHECK(naive > 1000);
}

TEST_CASE("Hertz powers: the FMA and Dekker product errors give the same bits (every power, the whole range)") {
  // ProductError is exact both ways, so the two forms run the same operations on the same values. The FMA form is
  // the build's when it has FMA instructions, else the FMA copies of contact/hertz_powers.cpp on a CPU with them.
  using namespace hertz_powers_detail;
  if (!HertzPowersUseFma()) {
    MESSAGE("no FMA instructions in this build or on this CPU: the FMA form cannot run here");
    return;
  }
  const bool copies = !kHertzPowersUseFma;  // the baseline build on an FMA CPU: the copies are what the laws call
  struct Pair {
    const char* name;
    double (*fma)(double);
    double (*dekker)(double);
  };
  const Pair pairs[] = {
      {"d^(3/2)", copies ? ThreeHalvesFma : ThreeHalves<true>, ThreeHalves<false>},
      {"d^(5/2)", copies ? FiveHalvesFma : FiveHalves<true>, FiveHalves<false>},
      {"d^(1/4)", copies ? QuarterFma : Quarter<true>, Quarter<false>},
      {"d^(5/4)", copies ? FiveQuartersFma : FiveQuarters<true>, FiveQuarters<false>}};
  std::mt19937_64 rng(20261207);
  std::uniform_real_distribution<double> decade(-101.0, 61.0);  // past both ends of the corrected range
  for (const Pair& pair : pairs) {
    const std::string name = pair.name;
    CAPTURE(name);
    long differing = 0, corrected = 0;
    for (long k = 0; k < 400000; ++k) {
      const double delta = std::pow(10.0, decade(rng));
      const double a = pair.fma(delta), b = pair.dekker(delta);
      if (std::memcmp(&a, &b, sizeof a) != 0) ++differing;
      // samples in the corrected range (outside it both forms return std::pow's value)
      if (delta >= kHertzPowerLow && delta <= kHertzPowerHigh) ++corrected;
    }
    CHECK(corrected > 390000);
    CHECK(differing == 0);
  }
  // The public powers (which take the FMA copies here) give these bits.
  for (double delta : {1e-12, 3.3e-9, 7.1e-7, 2.9e-5, 1e-3}) {
    CHECK(PowThreeHalves(delta) == pairs[0].fma(delta));
    CHECK(PowFiveQuarters(delta) == pairs[3].fma(delta));
  }
  // A product error dropped (fl(a b) taken as exact) changes bits: the comparison above can fail.
  long naive_differs = 0;
  for (long k = 0; k < 20000; ++k) {
    const double delta = std::pow(10.0, decade(rng) / 10.0 - 6.0), s = std::sqrt(delta);
    const double naive = delta * s - 0.5 * SquareRootResidual<false>(s, delta) * s;
    if (naive != ThreeHalves<false>(delta)) ++naive_differs;
  }
  CHECK(naive_differs > 1000);
}

TEST_CASE("Hertz powers: exact cases, and std::pow's value outside 1e-100..1e60, at 0, inf and NaN") {
  CHECK(PowThreeHalves(4.0) == 8.0);
  CHECK(PowThreeHalves(0.25) == 0.125);
  CHECK(PowFiveHalves(4.0) == 32.0);
  CHECK(PowQuarter(16.0) == 2.0);
  CHECK(PowQuarter(1.0 / 16.0) == 0.5);
  CHECK(PowFiveQuarters(16.0) == 32.0);
  for (double delta : {0.0, 1e-300, 5e-324, 1e-101, 2e60, 1e200, std::numeric_limits<double>::max(),
                       std::numeric_limits<double>::infinity()}) {
    CAPTURE(delta);
    CHECK(PowThreeHalves(delta) == std::pow(delta, 1.5));
    CHECK(PowFiveHalves(delta) == std::pow(delta, 2.5));
    CHECK(PowQuarter(delta) == std::pow(delta, 0.25));
    CHECK(PowFiveQuarters(delta) == std::pow(delta, 1.25));
  }
  CHECK(std::isnan(PowThreeHalves(std::nan(""))));
  CHECK(std::isnan(PowFiveHalves(-1.0)));
  CHECK(std::isnan(PowQuarter(-1.0)));
  CHECK(std::isnan(PowFiveQuarters(-1.0)));
}

TEST_CASE("Hertz laws take the correctly rounded powers: F = k d^(3/2), W = k d^(5/2)/2.5, Tsuji C and its potential") {
  const double k = 3.7e9, alpha = 0.6, m = 2.1e-3;
  const HertzLaw hertz(k);
  const TsujiDamping tsuji(alpha, m, k, 1.5);
  const double scale = alpha * std::sqrt(m * k);
  for (double delta : {1e-12, 3.3e-9, 7.1e-7, 2.9e-5, 1e-3}) {
    CAPTURE(delta);
    CHECK(hertz.Force(delta) == k * PowThreeHalves(delta));
    CHECK(hertz.Potential(delta) == k * PowFiveHalves(delta) / 2.5);
    CHECK(tsuji.Coefficient(delta) == scale * PowQuarter(delta));
    CHECK(tsuji.DissipationPotential(delta) == 2.0 * scale / 2.5 * PowFiveQuarters(delta));
    // the closed forms to round-off
    CHECK(hertz.Force(delta) == doctest::Approx(k * delta * std::sqrt(delta)).epsilon(4e-16));
    CHECK(hertz.Potential(delta) == doctest::Approx(0.4 * k * delta * delta * std::sqrt(delta)).epsilon(6e-16));
    CHECK(tsuji.Coefficient(delta) == doctest::Approx(scale * std::sqrt(std::sqrt(delta))).epsilon(4e-16));
    CHECK(tsuji.DissipationPotential(delta) ==
          doctest::Approx(0.8 * scale * delta * std::sqrt(std::sqrt(delta))).epsilon(6e-16));
  }
  // Other exponents keep std::pow.
  const PowerLaw cone(k, 2.0);
  CHECK(cone.Force(1e-4) == k * std::pow(1e-4, 2.0));
}
