#include "convergence/order_fit.h"

#include <boost/math/distributions/students_t.hpp>
#include <cmath>

namespace impactlab {

std::optional<OrderFit> FitOrder(const std::vector<double>& x, const std::vector<double>& error,
                                 const std::vector<bool>& use) {
  std::vector<double> lx, ly;
  for (size_t i = 0; i < x.size() && i < error.size() && i < use.size(); ++i)
    if (use[i] && x[i] > 0.0 && error[i] > 0.0 && std::isfinite(x[i]) && std::isfinite(error[i])) {
      lx.push_back(std::log(x[i]));
      ly.push_back(std::log(error[i]));
    }
  const size_t n = lx.size();
  if (n < 3) return std::nullopt;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; ++i) {
    mx += lx[i];
    my += ly[i];
  }
  mx /= n;
  my /= n;
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sxx += (lx[i] - mx) * (lx[i] - mx);
    sxy += (lx[i] - mx) * (ly[i] - my);
  }
  if (!(sxx > 0.0)) return std::nullopt;
  OrderFit f;
  f.order = sxy / sxx;
  double ssr = 0;
  for (size_t i = 0; i < n; ++i) {
    const double r = ly[i] - (my + f.order * (lx[i] - mx));
    ssr += r * r;
  }
  f.standard_error = std::sqrt(ssr / static_cast<double>(n - 2) / sxx);
  const boost::math::students_t t(static_cast<double>(n - 2));
  const double q = boost::math::quantile(t, 0.975);
  f.ci95_low = f.order - q * f.standard_error;
  f.ci95_high = f.order + q * f.standard_error;
  f.points = static_cast<int>(n);
  return f;
}

}  // namespace impactlab
