// ContactBlockDifference: the forward-difference Jacobian block of one contact's force over the few coordinates
// of its bodies (system/discrete_contact_jacobian.h), for contact laws without a closed-form derivative (the
// tangential return mapping of a history-dependent law):
//
//   B[:, c] = (f(x + ê_c e_c) − f(x)) / ẽ_c,   e_c = 1.5·10⁻⁸ · max(|x_c|, motion, 10⁻³⁰⁰),   ẽ_c = (x_c + e_c) − x_c
//
// (ẽ_c: the step actually represented). The step is √ε relative to the coordinate's own size and to the motion
// of the time step [Dennis & Schnabel 1996, §5.4]; ForwardDifferenceStep is the one rule, shared with the dense
// forward-difference Jacobian of the midpoint schemes, so both differentiate with the same steps.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace impactlab {

/// e_c of the header comment.
inline double ForwardDifferenceStep(double coordinate, double motion) {
  return 1.5e-8 * std::max({std::abs(coordinate), motion, 1e-300});
}

/// B = ∂f/∂x at x by forward differences (header comment); f maps an M-vector to an M-vector (M = 6 or 12 for the
/// sphere contacts). M + 1 evaluations of f.
template <int M, class Force>
void ContactBlockDifference(const Eigen::Matrix<double, M, 1>& x, double motion, const Force& f,
                            Eigen::Matrix<double, M, M>& block) {
  const Eigen::Matrix<double, M, 1> f0 = f(x);
  Eigen::Matrix<double, M, 1> xp = x;
  for (int c = 0; c < M; ++c) {
    xp[c] = x[c] + ForwardDifferenceStep(x[c], motion);
    const double represented = xp[c] - x[c];
    block.col(c) = (f(xp) - f0) / represented;
    xp[c] = x[c];
  }
}

}  // namespace impactlab
