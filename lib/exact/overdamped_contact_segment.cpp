#include "exact/overdamped_contact_segment.h"

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>

#include "core/checks.h"
#include "core/errors.h"

namespace impactlab {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTolerance = 1e-12;  // as in feng_power_law_solution.cpp
constexpr int kRootDigits = 50;
}  // namespace

OverdampedContactSegment::OverdampedContactSegment(double mass, double stiffness, double exponent, double alpha,
                                                   double delta0, double delta_dot0)
    : m_(RequirePositive("m", mass)),
      k_(RequirePositive("k", stiffness)),
      p_(RequireAtLeast("p", exponent, 1.0)),
      tau_exit_(kInf) {
  RequireNonNegative("alpha", alpha);
  RequirePositive("delta", delta0);
  RequireFinite("delta_dot", delta_dot0);
  q_ = 2.0 / (p_ + 1.0);
  beta_ = (p_ - 1.0) / (p_ + 1.0);
  a_ = std::pow((p_ + 1.0) / 2.0, 1.0 / (p_ + 1.0));
  omega0_ = std::sqrt(k_ / m_);
  zeta_ = alpha / std::sqrt(2.0 * (p_ + 1.0));
  if (!(zeta_ >= 1.0)) throw InvalidParameter("alpha", alpha, ">= sqrt(2(p+1)) (over-damped)");
  sigma_ = std::sqrt((zeta_ - 1.0) * (zeta_ + 1.0));
  x0_ = std::sqrt(2.0 / (p_ + 1.0)) * std::pow(delta0, 0.5 * (p_ + 1.0));
  r_ = delta_dot0 / (omega0_ * x0_);
  r1_ = sigma_ - zeta_;
  r2_ = -sigma_ - zeta_;
  if (sigma_ > 0.0) {
    a1_ = (r_ - r2_) / (r1_ - r2_);
    a2_ = (r1_ - r_) / (r1_ - r2_);
    exits_ = a1_ < 0.0;
    if (exits_) tau_exit_ = std::log((r1_ - r_) / (r2_ - r_)) / (r1_ - r2_);
  } else {
    exits_ = r_ < -1.0;
    if (exits_) tau_exit_ = -1.0 / (r_ + 1.0);
  }
}

double OverdampedContactSegment::Xi(double tau) const {
  if (sigma_ == 0.0) return (1.0 + (r_ + 1.0) * tau) * std::exp(-tau);
  return a1_ * std::exp(r1_ * tau) + a2_ * std::exp(r2_ * tau);
}

double OverdampedContactSegment::XiDot(double tau) const {
  if (sigma_ == 0.0) return ((r_ + 1.0) - (1.0 + (r_ + 1.0) * tau)) * std::exp(-tau);
  return a1_ * r1_ * std::exp(r1_ * tau) + a2_ * r2_ * std::exp(r2_ * tau);
}

double OverdampedContactSegment::XiNearExit(double d) const {
  const double u = tau_exit_ - d;
  if (sigma_ == 0.0) return -(r_ + 1.0) * d * std::exp(-u);
  return -a2_ * std::exp(r2_ * u) * std::expm1(-(r1_ - r2_) * d);
}

double OverdampedContactSegment::TimeScale() const { return a_ * q_ / omega0_ * std::pow(x0_, -beta_); }

double OverdampedContactSegment::Integral(double tau) const {
  if (tau <= 0.0) return 0.0;
  if (beta_ == 0.0) return tau;
  const double b = beta_;
  auto regular = [this, b](double u) { return std::pow(Xi(u), -b); };
  using GK = boost::math::quadrature::gauss_kronrod<double, 31>;
  if (!exits_) return GK::integrate(regular, 0.0, tau, 15, kTolerance);
  // Split at τ_z/2: regular head; tail in w with τ_z − u = w^{1/q}: ξ^{−β} du = (1/q)(d/ξ)^β dw.
  const double half = 0.5 * tau_exit_;
  if (tau <= half) return GK::integrate(regular, 0.0, tau, 15, kTolerance);
  const double inv_q = 1.0 / q_;
  auto tail = [this, b, inv_q](double w) {
    const double d = std::pow(w, inv_q);
    if (d <= 0.0) return inv_q * std::pow(-1.0 / XiDot(tau_exit_), b);
    return inv_q * std::pow(d / XiNearExit(d), b);
  };
  thread_local boost::math::quadrature::tanh_sinh<double> ts;  // non-const integrate(): one per thread
  const double d_end = std::max(tau_exit_ - tau, 0.0);
  return GK::integrate(regular, 0.0, half, 15, kTolerance) +
         ts.integrate(tail, std::pow(d_end, q_), std::pow(half, q_), kTolerance);
}

double OverdampedContactSegment::time_to_exit() const {
  return exits_ ? TimeScale() * Integral(tau_exit_) : kInf;
}

double OverdampedContactSegment::exit_velocity() const {
  return exits_ ? x0_ * omega0_ * XiDot(tau_exit_) : 0.0;
}

PowerLawContactState OverdampedContactSegment::StateAfter(double dt) const {
  RequireNonNegative("dt", dt);
  PowerLawContactState s;
  s.t = dt;
  if (exits_ && dt >= time_to_exit()) {
    s.delta = 0.0;
    s.delta_dot = exit_velocity();
    return s;
  }
  const double target = dt / TimeScale();
  double hi = exits_ ? tau_exit_ : 1.0;
  if (!exits_)
    while (Integral(hi) < target) {
      hi *= 2.0;
      if (hi > 1e300) throw InvalidParameter("dt", dt, "a time the over-damped solution reaches in double");
    }
  auto f = [&](double tau) {
    const double xi = exits_ && tau > 0.5 * tau_exit_ ? XiNearExit(tau_exit_ - tau) : Xi(tau);
    return std::make_pair(Integral(tau) - target, std::pow(std::max(xi, 1e-300), -beta_));
  };
  std::uintmax_t iterations = 200;
  const double guess = std::clamp(target, 0.0, hi);
  const double tau = boost::math::tools::newton_raphson_iterate(f, guess, 0.0, hi, kRootDigits, iterations);
  const double xi = exits_ && tau > 0.5 * tau_exit_ ? XiNearExit(tau_exit_ - tau) : Xi(tau);
  s.delta = a_ * std::pow(x0_ * std::max(xi, 0.0), q_);
  s.delta_dot = x0_ * omega0_ * XiDot(tau);
  return s;
}

}  // namespace impactlab
