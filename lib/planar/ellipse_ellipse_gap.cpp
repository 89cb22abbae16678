#include "planar/ellipse_ellipse_gap.h"

#include <algorithm>
#include <array>
#include <utility>
#include <cmath>
#include <numbers>

namespace impactlab {

namespace {

struct SupportTerms {
  double h, dh, d2h;
};

SupportTerms SupportAt(const Eigen::Matrix2d& s, double t) {
  const double c = std::cos(t), sn = std::sin(t);
  const double f = s(0, 0) * c * c + 2.0 * s(0, 1) * c * sn + s(1, 1) * sn * sn;
  const double c2 = std::cos(2.0 * t), s2 = std::sin(2.0 * t);
  const double f1 = (s(1, 1) - s(0, 0)) * s2 + 2.0 * s(0, 1) * c2;
  const double f2 = 2.0 * (s(1, 1) - s(0, 0)) * c2 - 4.0 * s(0, 1) * s2;
  const double h = std::sqrt(f);
  return {h, f1 / (2.0 * h), f2 / (2.0 * h) - f1 * f1 / (4.0 * h * h * h)};
}

struct Phi {
  const Eigen::Matrix2d& sa;
  const Eigen::Matrix2d& sb;
  const Eigen::Vector2d& d;
  double Value(double t) const { return ValueAt(std::cos(t), std::sin(t)); }
  double ValueAt(double c, double s) const {
    const double ha = std::sqrt(sa(0, 0) * c * c + 2.0 * sa(0, 1) * c * s + sa(1, 1) * s * s);
    const double hb = std::sqrt(sb(0, 0) * c * c + 2.0 * sb(0, 1) * c * s + sb(1, 1) * s * s);
    return c * d.x() + s * d.y() - ha - hb;
  }
  void Derivatives(double t, double& d1, double& d2) const {
    const Eigen::Vector2d u(std::cos(t), std::sin(t));
    const SupportTerms a = SupportAt(sa, t), b = SupportAt(sb, t);
    d1 = Perp(u).dot(d) - a.dh - b.dh;
    d2 = -u.dot(d) - a.d2h - b.d2h;
  }
};

}  // namespace

PlanarGap EllipseEllipseGap(const Ellipse& ea, int body_a, const Eigen::Vector2d& xa, double theta_a,
                            const Ellipse& eb, int body_b, const Eigen::Vector2d& xb, double theta_b) {
  const Eigen::Matrix2d sa = ea.ShapeMatrix(theta_a), sb = eb.ShapeMatrix(theta_b);
  const Eigen::Vector2d d = xb - xa;
  const Phi phi{sa, sb, d};
  constexpr int kSamples = 64;
  const double spacing = 2.0 * std::numbers::pi / kSamples;
  double best_t = 0.0, best = -1e300;
  static const auto table = [] {
    std::array<std::pair<double, double>, kSamples> cs{};
    for (int k = 0; k < kSamples; ++k)
      cs[static_cast<size_t>(k)] = {std::cos(k * 2.0 * std::numbers::pi / kSamples),
                                    std::sin(k * 2.0 * std::numbers::pi / kSamples)};
    return cs;
  }();
  for (int k = 0; k < kSamples; ++k) {
    const double t = k * spacing;
    const double v = phi.ValueAt(table[static_cast<size_t>(k)].first, table[static_cast<size_t>(k)].second);
    if (v > best) {
      best = v;
      best_t = t;
    }
  }
  const double lo = best_t - spacing, hi = best_t + spacing;
  double t = best_t;
  bool newton_ok = false;
  for (int it = 0; it < 60; ++it) {
    double d1, d2;
    phi.Derivatives(t, d1, d2);
    if (!(d2 < 0.0)) break;  // not locally concave: leave it to the golden-section search
    double step = -d1 / d2;
    step = std::clamp(step, -0.5 * spacing, 0.5 * spacing);
    t += step;
    if (t < lo || t > hi) break;
    if (std::abs(step) < 1e-14) {
      newton_ok = true;
      break;
    }
  }
  if (!newton_ok) {  // golden-section maximization on [lo, hi] (φ is unimodal there for the global basin)
    const double gr = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = lo, b = hi;
    double c = b - gr * (b - a), e = a + gr * (b - a);
    double fc = phi.Value(c), fe = phi.Value(e);
    while (b - a > 1e-13) {
      if (fc > fe) {
        b = e; e = c; fe = fc; c = b - gr * (b - a); fc = phi.Value(c);
      } else {
        a = c; c = e; fc = fe; e = a + gr * (b - a); fe = phi.Value(e);
      }
    }
    t = 0.5 * (a + b);
  }
  const Eigen::Vector2d n(std::cos(t), std::sin(t));
  PlanarGap g;
  g.body_a = body_a;
  g.body_b = body_b;
  g.delta = -phi.Value(t);
  g.normal = n;
  g.tangent = Perp(n);
  const double ha = std::sqrt(n.dot(sa * n)), hb = std::sqrt(n.dot(sb * n));
  const Eigen::Vector2d wa = xa + sa * n / ha;
  const Eigen::Vector2d wb = xb - sb * n / hb;
  g.point = 0.5 * (wa + wb);
  const double ra = ea.CurvatureRadius(ha), rb = eb.CurvatureRadius(hb);  // h(−n) = h(n): central symmetry
  g.effective_radius = ra * rb / (ra + rb);
  return g;
}

}  // namespace impactlab
