// Planar gap geometry against closed forms: ellipse–line support distance, circle–circle, aligned
// ellipses, and ellipse–ellipse against a brute-force boundary sampling; envelope-theorem derivatives of δ
// against central finite differences.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "planar/ellipse_ellipse_gap.h"
#include "planar/ellipse_wall_gap.h"

using namespace impactlab;

namespace {
// Newton on φ'(t) converges to |Δt| < 1e-14, so δ is exact to round-off (~1e-16 m on 0.1 m bodies).
constexpr double kGapTol = 1e-13;
// Brute-force reference: 20000 boundary points per ellipse, the chord error of the sampling is
// ~ a (π/20000)² / 2 ≈ 1e-9 m, so the distance agrees to 1e-8 m.
constexpr double kBruteTol = 1e-8;
// Central finite differences, step 1e-6: truncation ~1e-12 · δ''', tolerance 1e-7 (relative to |∇δ| ~ 1).
constexpr double kFdTol = 1e-7;
}  // namespace

TEST_CASE("ellipse-line gap matches the support-function closed form") {
  const Ellipse e{0.075, 0.03, 1.0};
  const Wall floor = Wall::Through({0.0, 0.0}, {0.0, 1.0});
  for (double th : {0.0, 0.3, 50.0 * std::numbers::pi / 180.0, 1.2, 2.9}) {
    const double y = 0.05;
    const PlanarGap g = EllipseWallGap(e, 0, {0.4, y}, th, floor);
    const double h = std::sqrt(std::pow(e.a * std::sin(th), 2) + std::pow(e.b * std::cos(th), 2));
    CHECK(g.delta == doctest::Approx(h - y).epsilon(kGapTol).scale(1.0));
    // The deepest point lies on the ellipse: ((p−x)·R e_x / a)² + ((p−x)·R e_y / b)² = 1, at height y − h.
    const Eigen::Vector2d p = g.point - 0.5 * g.delta * g.normal - Eigen::Vector2d(0.4, y);
    const double u = p.x() * std::cos(th) + p.y() * std::sin(th), w = -p.x() * std::sin(th) + p.y() * std::cos(th);
    CHECK(u * u / (e.a * e.a) + w * w / (e.b * e.b) == doctest::Approx(1.0).epsilon(1e-13));
    CHECK(p.y() == doctest::Approx(-h).epsilon(1e-13));
  }
  // docs/theory.md §8: the carom ellipse at 50° has floor support distance h = 0.06060 m.
  const PlanarGap g = EllipseWallGap(e, 0, {0.45, 0.1}, 50.0 * std::numbers::pi / 180.0, floor);
  CHECK(0.1 + g.delta - 0.1 == doctest::Approx(0.06060 - 0.1).epsilon(1e-4));
  // A tilted wall: gap is translation-invariant along the wall.
  const Wall tilted = Wall::Through({1.0, 0.0}, {-1.0, 0.2});
  const Eigen::Vector2d along = Perp(tilted.normal);
  const double d1 = EllipseWallGap(e, 0, {0.9, 0.3}, 0.7, tilted).delta;
  const double d2 = EllipseWallGap(e, 0, Eigen::Vector2d(0.9, 0.3) + 0.37 * along, 0.7, tilted).delta;
  CHECK(d1 == doctest::Approx(d2).epsilon(kGapTol));
}

TEST_CASE("ellipse-ellipse gap: circles and aligned ellipses in closed form") {
  const Ellipse c1{0.05, 0.05, 1.0}, c2{0.03, 0.03, 1.0};
  for (double dist : {0.2, 0.081, 0.079, 0.06}) {
    const Eigen::Vector2d d = dist * Eigen::Vector2d(std::cos(0.7), std::sin(0.7));
    const PlanarGap g = EllipseEllipseGap(c1, 0, {0.1, 0.2}, 0.3, c2, 1, Eigen::Vector2d(0.1, 0.2) + d, -1.0);
    CHECK(g.delta == doctest::Approx(0.08 - dist).epsilon(kGapTol).scale(1.0));
    CHECK((g.normal - d.normalized()).norm() < 1e-12);
  }
  const Ellipse e{0.075, 0.03, 1.0};
  // Both major axes along x, centres on the x-axis: δ = 2a − L. B rotated by 90°: δ = a + b − L.
  for (double l : {0.2, 0.149, 0.14}) {
    CHECK(EllipseEllipseGap(e, 0, {0, 0}, 0.0, e, 1, {l, 0}, 0.0).delta ==
          doctest::Approx(0.15 - l).epsilon(kGapTol).scale(1.0));
    CHECK(EllipseEllipseGap(e, 0, {0, 0}, 0.0, e, 1, {l, 0}, std::numbers::pi / 2).delta ==
          doctest::Approx(0.105 - l).epsilon(kGapTol).scale(1.0));
  }
}

TEST_CASE("planar gap: effective radius of the two boundary curvatures at the contact point") {
  // Circles: R* = r_A r_B / (r_A + r_B). Ellipses, closed forms: b²/a at the ends of the a-axis, a²/b at the ends
  // of the b-axis; a wall is flat (R* = ρ of the body).
  const Ellipse c1{0.05, 0.05, 1.0}, c2{0.03, 0.03, 1.0}, e{0.075, 0.03, 1.0};
  CHECK(EllipseEllipseGap(c1, 0, {0, 0}, 0.3, c2, 1, {0.079, 0.0}, 1.0).effective_radius ==
        doctest::Approx(0.05 * 0.03 / 0.08).epsilon(1e-13));
  const double tip = e.b * e.b / e.a, side = e.a * e.a / e.b;
  CHECK(EllipseEllipseGap(e, 0, {0, 0}, 0.0, e, 1, {0.149, 0}, 0.0).effective_radius ==
        doctest::Approx(tip / 2).epsilon(1e-12));
  CHECK(EllipseEllipseGap(e, 0, {0, 0}, 0.0, e, 1, {0.104, 0}, std::numbers::pi / 2).effective_radius ==
        doctest::Approx(tip * side / (tip + side)).epsilon(1e-12));
  const Wall floor = Wall::Through({0.0, 0.0}, {0.0, 1.0});
  CHECK(EllipseWallGap(e, 0, {0.4, 0.029}, 0.0, floor).effective_radius == doctest::Approx(side).epsilon(1e-13));
  CHECK(EllipseWallGap(e, 0, {0.4, 0.074}, std::numbers::pi / 2, floor).effective_radius ==
        doctest::Approx(tip).epsilon(1e-13));
  // Any inclination: the curvature of the parametrized boundary p(t) = (a cos t, b sin t) at the deepest point,
  // ρ = (a² sin² t + b² cos² t)^{3/2} / (a b) (independent of the support-function formula ρ = a²b²/h³).
  for (double th : {0.3, 50.0 * std::numbers::pi / 180.0, 2.0}) {
    const Eigen::Vector2d x(0.4, 0.05);
    const PlanarGap g = EllipseWallGap(e, 0, x, th, floor);
    const Eigen::Vector2d p = g.point - 0.5 * g.delta * g.normal - x;  // the deepest point, from the centre
    const double u = p.x() * std::cos(th) + p.y() * std::sin(th), w = -p.x() * std::sin(th) + p.y() * std::cos(th);
    const double t = std::atan2(w / e.b, u / e.a);
    const double rho = std::pow(std::pow(e.a * std::sin(t), 2) + std::pow(e.b * std::cos(t), 2), 1.5) / (e.a * e.b);
    CHECK(g.effective_radius == doctest::Approx(rho).epsilon(1e-12));
  }
}

TEST_CASE("ellipse-ellipse separation distance matches brute-force boundary sampling") {
  const Ellipse ea{0.075, 0.03, 1.0}, eb{0.05, 0.02, 1.0};
  const Eigen::Vector2d xa(0.0, 0.0);
  const double tha = 0.4;
  for (const auto& [xb, thb] : {std::pair{Eigen::Vector2d(0.12, 0.05), 1.1}, std::pair{Eigen::Vector2d(-0.02, 0.1), -0.3},
                                std::pair{Eigen::Vector2d(0.09, -0.09), 2.0}}) {
    const PlanarGap g = EllipseEllipseGap(ea, 0, xa, tha, eb, 1, xb, thb);
    REQUIRE(g.delta < 0.0);
    constexpr int kN = 20000;
    double best = 1e9;
    std::vector<Eigen::Vector2d> pb(kN);
    for (int j = 0; j < kN; ++j) {
      const double s = 2 * std::numbers::pi * j / kN;
      pb[j] = xb + Eigen::Vector2d(eb.a * std::cos(s) * std::cos(thb) - eb.b * std::sin(s) * std::sin(thb),
                                   eb.a * std::cos(s) * std::sin(thb) + eb.b * std::sin(s) * std::cos(thb));
    }
    for (int i = 0; i < kN; ++i) {
      const double s = 2 * std::numbers::pi * i / kN;
      const Eigen::Vector2d pa = xa + Eigen::Vector2d(ea.a * std::cos(s) * std::cos(tha) - ea.b * std::sin(s) * std::sin(tha),
                                                      ea.a * std::cos(s) * std::sin(tha) + ea.b * std::sin(s) * std::cos(tha));
      // Only points of A near the witness region matter; a coarse prefilter keeps the test fast.
      if ((pa - g.point).norm() > 0.05) continue;
      for (const auto& q : pb) best = std::min(best, (pa - q).squaredNorm());
    }
    CHECK(-g.delta == doctest::Approx(std::sqrt(best)).epsilon(kBruteTol).scale(1.0));
  }
}

TEST_CASE("ellipse-ellipse gap derivatives follow the envelope theorem (finite differences)") {
  const Ellipse ea{0.075, 0.03, 1.0}, eb{0.06, 0.025, 2.0};
  Eigen::Matrix<double, 6, 1> q;
  q << 0.1, 0.2, 0.5, 0.2, 0.23, -0.8;  // overlapping
  auto delta = [&](const Eigen::Matrix<double, 6, 1>& x) {
    return EllipseEllipseGap(ea, 0, x.segment<2>(0), x[2], eb, 1, x.segment<2>(3), x[5]).delta;
  };
  const PlanarGap g = EllipseEllipseGap(ea, 0, q.segment<2>(0), q[2], eb, 1, q.segment<2>(3), q[5]);
  REQUIRE(g.delta > 0.0);
  Eigen::Matrix<double, 6, 1> grad;
  grad.segment<2>(0) = g.normal;
  grad[2] = Cross2(g.point - q.segment<2>(0), g.normal);
  grad.segment<2>(3) = -g.normal;
  grad[5] = -Cross2(g.point - q.segment<2>(3), g.normal);
  for (int i = 0; i < 6; ++i) {
    Eigen::Matrix<double, 6, 1> qp = q, qm = q;
    qp[i] += 1e-6;
    qm[i] -= 1e-6;
    CHECK((delta(qp) - delta(qm)) / 2e-6 == doctest::Approx(grad[i]).epsilon(kFdTol).scale(1.0));
  }
}
