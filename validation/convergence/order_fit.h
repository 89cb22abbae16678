// Observed order of convergence with its uncertainty: the least-squares line through (log x_i, log e_i)
// of the points inside the asymptotic range (x = dt for fixed-step schemes, the tolerance for adaptive ones),
//
//   slope b = S_xy / S_xx,   s² = Σ r_i² / (n − 2),   SE(b) = s / √S_xx,
//   95 % interval b ± t_{0.975, n−2} · SE(b)          (Student's t, Boost.Math),
//
// with n ≥ 3 points (two points give a slope but no uncertainty: reported without an interval is not
// allowed, so n = 2 gives no fit) [e.g. Roache 1998, "Verification and Validation in Computational Science",
// §5; Montgomery & Runger, simple linear regression].
#pragma once

#include <optional>
#include <vector>

namespace impactlab {

struct OrderFit {
  double order = 0.0;           ///< slope b
  double standard_error = 0.0;  ///< SE(b)
  double ci95_low = 0.0, ci95_high = 0.0;
  int points = 0;               ///< n
};

/// Fit over the points with use[i] true and x_i, e_i > 0 finite; nullopt with fewer than 3 such points.
std::optional<OrderFit> FitOrder(const std::vector<double>& x, const std::vector<double>& error,
                                 const std::vector<bool>& use);

}  // namespace impactlab
