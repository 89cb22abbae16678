// Discrete derivative of a scalar function f between two points (the Simo–Tarnow / Greenspan
// difference quotient) [Seed003 eq. (8); docs/theory.md §7]:
//
//   f̄'(a, b) = (f(b) − f(a)) / (b − a)        for |b − a| > ε (|a| + |b| + scale)
//   f̄'(a, b) = f'((a + b)/2)                  otherwise (no cancellation; energy error O(|b−a|³ f'''))
//
// Written once for every law (elastic potential W and damping potential Φ alike).
#pragma once

#include <cmath>

namespace impactlab {

/// `f` and `df` are callables double -> double; `scale` sets the absolute size below which a, b coincide.
template <class F, class DF>
double DiscreteDerivative(const F& f, const DF& df, double a, double b, double scale,
                          double relative_threshold = 1e-7) {
  const double diff = b - a;
  if (std::abs(diff) > relative_threshold * (std::abs(a) + std::abs(b) + scale)) return (f(b) - f(a)) / diff;
  return df(0.5 * (a + b));
}

}  // namespace impactlab
