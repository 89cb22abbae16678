// FengPowerLawSolution against closed forms: the linear spring–dashpot (p = 1), the Gamma-function undamped
// contact time, docs/theory.md §10 rows 12 and 13, the energy split, the inverse map t ↔ τ, over-damping, and
// bad input. The CVODE grid is in feng_power_law_cvode_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "contact/restitution_calibration.h"
#include "core/errors.h"
#include "exact/feng_power_law_solution.h"

using namespace impactlab;

namespace {
// p = 1 is evaluated with J = φ exactly; only round-off of exp/sin/atan remains.
constexpr double kClosedFormTol = 1e-12;
// docs/theory.md §10 rows 12/13 are printed with 6-7 significant digits: half a unit of the last digit.
constexpr double kPrinted6Tol = 5e-7;
constexpr double kPrinted5Tol = 5e-6;
// Quadrature vs the Gamma closed form (tanh_sinh converges double-exponentially): 1e-13 relative.
constexpr double kQuadratureTol = 1e-13;
constexpr double kPi = std::numbers::pi;
}  // namespace

TEST_CASE("FengPowerLawSolution p = 1 equals the linear spring-dashpot closed forms") {
  for (double e : {0.1, 0.5, 0.9, 1.0}) {
    for (double v0 : {0.3, 2.0}) {
      const double m = 2.5, k = 40.0;
      const auto s = FengPowerLawSolution::FromRestitution(m, k, 1.0, e, v0);
      const double xi = DampingRatioFromRestitution(e);
      const double w0 = std::sqrt(k / m), wd = w0 * std::sqrt(1 - xi * xi);
      const double t_c = kPi / wd, t_max = std::atan2(wd, xi * w0) / wd;
      auto delta = [&](double t) { return v0 / wd * std::exp(-xi * w0 * t) * std::sin(wd * t); };
      auto delta_dot = [&](double t) {
        return v0 * std::exp(-xi * w0 * t) * (std::cos(wd * t) - xi * w0 / wd * std::sin(wd * t));
      };
      CHECK(s.restitution() == doctest::Approx(std::exp(-xi * kPi / std::sqrt(1 - xi * xi))).epsilon(kClosedFormTol));
      CHECK(s.restitution() == doctest::Approx(e).epsilon(kClosedFormTol));
      CHECK(s.contact_time() == doctest::Approx(t_c).epsilon(kClosedFormTol));
      CHECK(s.time_of_max_overlap() == doctest::Approx(t_max).epsilon(kClosedFormTol));
      CHECK(s.max_overlap() == doctest::Approx(delta(t_max)).epsilon(kClosedFormTol));
      for (double f : {0.01, 0.3, 0.5, 0.77, 0.999}) {
        const auto st = s.StateAtTime(f * t_c);
        CHECK(st.delta == doctest::Approx(delta(f * t_c)).epsilon(kClosedFormTol).scale(0.0));
        CHECK(std::abs(st.delta_dot - delta_dot(f * t_c)) <= kClosedFormTol * v0);
      }
      CHECK(s.undamped_contact_time() == doctest::Approx(kPi / w0).epsilon(kClosedFormTol));
    }
  }
}

TEST_CASE("FengPowerLawSolution docs/theory.md §10 row 12 (m = k = v0 = 1)") {
  struct Row {
    double p, e, delta_max, t_max, t_c;
  };
  for (const Row r : {Row{1.5, 0.5, 0.860991, 1.485639, 3.518532}, Row{2.0, 0.5, 0.938050, 1.523346, 3.671569},
                      Row{3.0, 0.1, 0.843182, 1.471265, 6.712267}}) {
    CAPTURE(r.p);
    const auto s = FengPowerLawSolution::FromRestitution(1, 1, r.p, r.e, 1);
    CHECK(s.max_overlap() == doctest::Approx(r.delta_max).epsilon(kPrinted6Tol));
    CHECK(s.time_of_max_overlap() == doctest::Approx(r.t_max).epsilon(kPrinted6Tol));
    CHECK(s.contact_time() == doctest::Approx(r.t_c).epsilon(kPrinted6Tol));
    CHECK(s.restitution() == doctest::Approx(r.e).epsilon(1e-14));
  }
  for (double p : {1.0, 1.5, 2.0, 2.5, 3.0}) {
    const auto s = FengPowerLawSolution::FromRestitution(1, 1, p, 0.5, 1);
    const double w_max = s.initial_energy() - s.energy_dissipated_loading();
    CHECK(w_max / s.initial_energy() == doctest::Approx(0.550283).epsilon(kPrinted6Tol));
    CHECK(s.ElasticEnergy(s.max_overlap()) == doctest::Approx(w_max).epsilon(1e-13));
    CHECK(s.energy_dissipated_loading() + s.energy_dissipated_unloading() ==
          doctest::Approx(s.initial_energy() * (1 - 0.25)).epsilon(1e-13));
  }
}

TEST_CASE("FengPowerLawSolution docs/theory.md §10 row 13: undamped t_c v0 / delta_max") {
  struct Row {
    double p, value;
  };
  for (const Row r : {Row{1.0, kPi}, Row{1.5, 2.94328}, Row{2.0, 2.80436}, Row{3.0, 2.62206}}) {
    for (double v0 : {0.2, 1.0, 7.0}) {
      FengPowerLawParameters par;
      par.exponent = r.p;
      par.mass = 0.7;
      par.stiffness = 3.0;
      par.impact_velocity = v0;
      const FengPowerLawSolution s(par);
      CHECK(s.contact_time() * v0 / s.max_overlap() == doctest::Approx(r.value).epsilon(kPrinted5Tol));
      // quadrature (α = 0) against the Gamma closed form
      CHECK(s.contact_time() == doctest::Approx(s.undamped_contact_time()).epsilon(kQuadratureTol));
      CHECK(s.restitution() == 1.0);
    }
  }
}

TEST_CASE("FengPowerLawSolution: t_c scales as v0^(-(p-1)/(p+1)), e independent of v0") {
  for (double p : {1.5, 2.5}) {
    const auto a = FengPowerLawSolution::FromRestitution(1.3, 2.0, p, 0.4, 0.1);
    const auto b = FengPowerLawSolution::FromRestitution(1.3, 2.0, p, 0.4, 10.0);
    const double beta = (p - 1) / (p + 1);
    CHECK(b.contact_time() / a.contact_time() == doctest::Approx(std::pow(100.0, -beta)).epsilon(1e-13));
    CHECK(a.restitution() == doctest::Approx(b.restitution()).epsilon(1e-15));
  }
}

TEST_CASE("FengPowerLawSolution: inverse map and trajectory consistency") {
  for (double p : {1.5, 2.0, 3.0}) {
    const auto s = FengPowerLawSolution::FromRestitution(0.8, 5.0, p, 0.3, 1.7);
    for (double f : {1e-6, 0.1, 0.49, 0.5, 0.51, 0.9, 1.0 - 1e-7}) {
      const double t = f * s.contact_time();
      CAPTURE(f);
      CHECK(s.TimeAtPhase(s.PhaseAtTime(t)) == doctest::Approx(t).epsilon(1e-13));
      const double r = (1 - f) * s.contact_time();  // time to exit, solved from the exit end
      CHECK(s.TimeToExit(s.PhaseAtTimeToExit(r)) == doctest::Approx(r).epsilon(1e-13));
      // both routes give the same state
      const auto a = s.StateAtPhase(s.PhaseAtTime(t)), b = s.StateAtPhase(s.PhaseAtTimeToExit(r));
      CHECK(std::abs(a.delta - b.delta) <= 1e-12 * s.max_overlap());
    }
    // the marching trajectory (Gauss-Legendre panels) equals the independent per-sample solve
    const auto traj = s.Trajectory(301);
    for (std::size_t i = 0; i < traj.size(); i += 7) {
      const auto ref = s.StateAtTime(traj[i].t);
      CHECK(std::abs(traj[i].delta - ref.delta) <= 1e-13 * s.max_overlap());
      CHECK(std::abs(traj[i].delta_dot - ref.delta_dot) <= 1e-13 * 1.7);
    }
    // AdvancePhase (Gauss-Legendre panels from the start phase) equals the absolute inverse map
    for (double f0 : {0.0, 0.2, 0.45, 0.7, 0.999}) {
      for (double df : {1e-6, 0.01, 0.2}) {
        if (f0 + df >= 1.0) continue;
        auto ph = s.PhaseAtTime(f0 * s.contact_time());
        double to_exit = 0;
        REQUIRE(s.AdvancePhase(ph, df * s.contact_time(), to_exit));
        CHECK(to_exit == doctest::Approx((1 - f0) * s.contact_time()).epsilon(1e-12));
        const auto a = s.KinematicsAtPhase(ph), b = s.StateAtTime((f0 + df) * s.contact_time());
        CHECK(std::abs(a.delta - b.delta) <= 1e-12 * s.max_overlap());
        CHECK(std::abs(a.delta_dot - b.delta_dot) <= 1e-12 * 1.7);
      }
      auto ph = s.PhaseAtTime(f0 * s.contact_time());
      double to_exit = 0;
      CHECK_FALSE(s.AdvancePhase(ph, (1.0001 - f0) * s.contact_time(), to_exit));
    }
    // energy books along the trajectory: E(t) decreases monotonically
    double e_prev = s.initial_energy() * (1 + 1e-14);
    for (const auto& st : s.Trajectory(40)) {
      const double e = 0.5 * 0.8 * st.delta_dot * st.delta_dot + s.ElasticEnergy(st.delta);
      CHECK(e <= e_prev);
      e_prev = e;
    }
    const auto exit = s.StateAtTime(s.contact_time());
    CHECK(exit.delta_dot == doctest::Approx(-0.3 * 1.7).epsilon(1e-13));
    const auto after = s.StateAtTime(s.contact_time() + 2.0);
    CHECK(after.delta == doctest::Approx(-0.3 * 1.7 * 2.0).epsilon(1e-13));
    // at t_max the rate vanishes
    CHECK(std::abs(s.StateAtTime(s.time_of_max_overlap()).delta_dot) <= 1e-12 * 1.7);
  }
}

TEST_CASE("FengPowerLawSolution: over-damped contact does not rebound") {
  for (double p : {1.0, 1.5, 3.0}) {
    for (double zeta : {1.0, 1.5, 4.0}) {
      FengPowerLawParameters par;
      par.exponent = p;
      par.alpha = zeta * std::sqrt(2 * (p + 1));
      par.mass = 2.0;
      par.stiffness = 3.0;
      par.impact_velocity = 0.5;
      const FengPowerLawSolution s(par);
      CHECK_FALSE(s.rebounds());
      CHECK(s.restitution() == 0.0);
      CHECK(std::isinf(s.contact_time()));
      CHECK(s.energy_dissipated_loading() + s.energy_dissipated_unloading() ==
            doctest::Approx(s.initial_energy()).epsilon(1e-14));
      const double t_max = s.time_of_max_overlap();
      const auto at_max = s.StateAtTime(t_max);
      CHECK(at_max.delta == doctest::Approx(s.max_overlap()).epsilon(1e-12));
      CHECK(std::abs(at_max.delta_dot) <= 1e-11 * 0.5);
      const auto late = s.StateAtTime(20 * t_max);
      CHECK(late.delta > 0.0);
      CHECK(late.delta < s.max_overlap());
      CHECK(late.delta_dot < 0.0);
      if (p == 1.0) {  // critically/over-damped linear oscillator in closed form
        const double w0 = std::sqrt(1.5), t = 20 * t_max;
        double d;
        if (zeta == 1.0) {
          d = 0.5 * t * std::exp(-w0 * t);
        } else {
          const double sg = std::sqrt(zeta * zeta - 1);
          d = 0.5 / (2 * sg * w0) * (std::exp((-zeta + sg) * w0 * t) - std::exp((-zeta - sg) * w0 * t));
        }
        CHECK(late.delta == doctest::Approx(d).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("FengPowerLawSolution: nearly critical damping is continuous with zeta = 1 and never NaN") {
  for (double p : {1.5, 3.0}) {
    FengPowerLawParameters crit;
    crit.exponent = p;
    crit.alpha = std::sqrt(2 * (p + 1));
    FengPowerLawParameters near = crit;
    near.alpha *= 1 - 1e-9;
    const FengPowerLawSolution a(crit), b(near);
    CHECK(b.rebounds());
    CHECK(b.restitution() == 0.0);  // exp(−πλ) underflows (λ ≈ 2e4)
    CHECK_FALSE(std::isnan(b.contact_time()));
    CHECK(b.contact_time() > 1e100);
    // continuity of the closed forms through ζ = 1 (O(√(1−ζ)) differences)
    CHECK(b.max_overlap() == doctest::Approx(a.max_overlap()).epsilon(1e-6));
    CHECK(b.time_of_max_overlap() == doctest::Approx(a.time_of_max_overlap()).epsilon(1e-6));
    const auto st = b.StateAtTime(0.5 * b.time_of_max_overlap());
    CHECK(st.delta == doctest::Approx(a.StateAtTime(0.5 * a.time_of_max_overlap()).delta).epsilon(1e-6));
  }
}

TEST_CASE("FengPowerLawSolution: bad input names the parameter") {
  FengPowerLawParameters par;
  par.exponent = 0.5;
  CHECK_THROWS_WITH_AS(FengPowerLawSolution{par}, doctest::Contains("p = 0.5"), InvalidParameter);
  par = {};
  par.alpha = -1;
  CHECK_THROWS_WITH_AS(FengPowerLawSolution{par}, doctest::Contains("alpha"), InvalidParameter);
  par = {};
  par.impact_velocity = 0;
  CHECK_THROWS_WITH_AS(FengPowerLawSolution{par}, doctest::Contains("v0"), InvalidParameter);
  CHECK_THROWS_AS(FengPowerLawSolution::FromRestitution(1, 1, 1.5, 0.0, 1), InvalidParameter);
  CHECK_THROWS_AS(FengPowerLawSolution::FromRestitution(1, 1, 1.5, 0.5, 1).Trajectory(1), InvalidParameter);
}
