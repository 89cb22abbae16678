// The rotation scheme with friction and gravity (lie_poisson_midpoint on ellipsoid_wall_3d with a tangential law,
// RigidBodySystem::DiscreteTangentialLoad; docs/rotation.md §7):
//  • the books E + D + W_f − W_g close to ≤ 1e-12 E₀ with friction, damping and gravity, spin about x, y and z,
//    for cundall_strack (W_g = 0, so E + D + W_f alone closes) and mindlin_integral (W_g ≠ 0);
//  • with μ = 0 every force is vertical, so L_z = m (x_G × v_G)_z + (R I Ω)_z is a constant of the motion: its
//    drift is second order in h; with μ > 0 the friction torque about the vertical opposes the spin (L_z falls);
//  • in a planar oblique impact friction pushes v_x and ω_y the way the slip velocity says, and its impulse
//    stays under μ times the normal impulse (Coulomb);
//  • order of the state at a fixed time inside the contact: 2 ± 0.15 in stick and in planar sliding; 1 ± 0.15 in
//    3-D sliding, where the slip direction turns and the laws' return mapping (a backward-Euler projection of
//    the spring onto the Coulomb cone, shared by every scheme) is first order — rk4 and dopri5 show the same;
//  • rk4 and dopri5 (same outer steps, history committed per step) converge to the conserving solution.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "integrators/lie_poisson_midpoint.h"
#include "models/ellipsoid_wall_impact_3d.h"
#include "registry/registries.h"

using namespace impactlab;

namespace {

// The case of tests/integrators/rigid_body_contact_step_test.cpp (θ = 30°, tilt 10°, v_G = (0.3, 0, −1.5) m/s,
// spin 4 rad/s about one world axis, K_n = 1e3 Pa, e_cn = 0.5) with gravity and a tangential law.
ParameterSet FrictionCase(const std::string& law, double mu, int axis) {
  ParameterSet ps;
  ps.Set("theta_deg", 30.0);
  ps.Set("tilt_deg", 10.0);
  ps.Set("v_x", 0.3);
  ps.Set("v_z", -1.5);
  ps.Set(std::string("omega_") + "xyz"[axis], 4.0);
  ps.Set("e_cn", 0.5);
  ps.Set("g", 9.81);
  if (!law.empty()) {
    ps.Set("tangential_law", law);
    ps.Set("mu", mu);
    if (law != "cundall_strack") ps.Set("G_star", 3000.0);
  }
  return ps;
}

std::shared_ptr<const EllipsoidWallImpact3D> MakeModel(const ParameterSet& ps) {
  auto model = std::dynamic_pointer_cast<const EllipsoidWallImpact3D>(
      ModelRegistry().Get("ellipsoid_wall_3d").make(ps).system);
  REQUIRE(model != nullptr);
  return model;
}

MechanicalState RunTo(const MechanicalSystem& model, const std::string& integrator, double t_end, int steps) {
  ParameterSet ip;
  ip.Set("rk_rtol", 1e-12);  // dopri5 inside each outer step: far below the history's per-step error
  ip.Set("rk_atol", 1e-14);
  auto scheme = IntegratorRegistry().Get(integrator).make(ip);
  MechanicalState s = model.InitialState();
  for (int n = 0; n < steps; ++n) REQUIRE(scheme->Step(model, s, t_end / steps).status == StepStatus::kAccepted);
  return s;
}

// |Δv_G| + ℓ|Δω| [m/s], ℓ = √(max Iᵢ/m).
double StateDistance(const EllipsoidWallImpact3D& m, const MechanicalState& a, const MechanicalState& b) {
  const double length = std::sqrt(m.PrincipalMoments().maxCoeff() / m.Mass());
  return (a.v.head<3>() - b.v.head<3>()).norm() +
         length * (m.WorldAngularVelocity(a) - m.WorldAngularVelocity(b)).norm();
}

// Observed orders on 40 → 80 → 160 → 320 steps to t = 0.024 s (inside the first contact) against 5120 steps.
std::vector<double> ObservedOrders(const EllipsoidWallImpact3D& m) {
  const double t_end = 0.024;
  const MechanicalState ref = RunTo(m, "lie_poisson_midpoint", t_end, 5120);
  std::vector<double> orders;
  double previous = 0.0;
  for (int steps : {40, 80, 160, 320}) {
    const double e = StateDistance(m, RunTo(m, "lie_poisson_midpoint", t_end, steps), ref);
    if (previous > 0.0) orders.push_back(std::log2(previous / e));
    MESSAGE(steps << " steps: error " << e << (previous > 0.0 ? ", order " + std::to_string(orders.back()) : ""));
    previous = e;
  }
  return orders;
}

double VerticalAngularMomentum(const EllipsoidWallImpact3D& m, const MechanicalState& s) {
  return (m.WorldInertia(s.q) * m.WorldAngularVelocity(s)).z() + m.Mass() * (s.q[0] * s.v[1] - s.q[1] * s.v[0]);
}

}  // namespace

TEST_CASE("rigid body friction: books close to 1e-12 with friction, damping and gravity, spin about each axis") {
  for (const std::string law : {"cundall_strack", "mindlin_integral"}) {
    for (int axis = 0; axis < 3; ++axis) {
      const auto model = MakeModel(FrictionCase(law, 0.3, axis));
      LiePoissonMidpoint scheme;
      MechanicalState s = model->InitialState();
      const EnergyTerms start = model->EnergyBooks(s);
      const double e0 = start.Energy();
      double worst_books = 0.0, worst_balance = 0.0;
      for (int n = 0; n < 2000; ++n) {  // 0.2 s: the impact and, falling back under gravity, more contact
        REQUIRE(scheme.Step(*model, s, 1e-4).status == StepStatus::kAccepted);
        const EnergyTerms t = model->EnergyBooks(s);
        worst_books = std::max(worst_books, std::abs(t.Books() - start.Books()) / e0);
        worst_balance = std::max(worst_balance, std::abs(t.Books() + t.generated_work - start.Books()) / e0);
      }
      const EnergyTerms end = model->EnergyBooks(s);
      CAPTURE(law);
      CAPTURE(axis);
      MESSAGE(law << ", spin about axis " << axis << ": max |E + D + W_f - W_g - E0|/E0 = " << worst_books
                  << ", without W_g " << worst_balance << "; D = " << end.damping_work << " J, W_f = "
                  << end.friction_work << " J, W_g = " << end.generated_work << " J of E0 = " << e0 << " J");
      CHECK(worst_books <= 1e-12);
      CHECK(end.friction_work > 1e-3 * e0);  // friction did work (0.04 J for spin about y: it soon rolls)
      CHECK(end.damping_work > 0.05 * e0);   // so did the damper
      // Cundall–Strack's spring has a constant stiffness: it creates nothing, so E + D + W_f closes alone.
      if (law == "cundall_strack") CHECK(worst_balance <= 1e-12);
    }
  }
}

TEST_CASE("rigid body friction: frictionless vertical forces keep L_z to second order, friction torque opposes spin") {
  const double t_end = 0.04;  // the whole first contact (~0.035 s) and a little free flight
  auto drift = [&](const EllipsoidWallImpact3D& m, int steps, double* end_change) {
    LiePoissonMidpoint scheme;
    MechanicalState s = m.InitialState();
    const double l0 = VerticalAngularMomentum(m, s);
    double worst = 0.0;
    for (int n = 0; n < steps; ++n) {
      REQUIRE(scheme.Step(m, s, t_end / steps).status == StepStatus::kAccepted);
      worst = std::max(worst, std::abs(VerticalAngularMomentum(m, s) - l0));
    }
    if (end_change) *end_change = VerticalAngularMomentum(m, s) - l0;
    return worst / std::abs(l0);
  };
  const auto frictionless = MakeModel(FrictionCase("", 0.0, 2));  // gravity and the damper: both vertical
  const double d1 = drift(*frictionless, 400, nullptr), d2 = drift(*frictionless, 800, nullptr),
               d3 = drift(*frictionless, 1600, nullptr);
  MESSAGE("mu = 0: max |L_z - L_z0|/|L_z0| = " << d1 << ", " << d2 << ", " << d3 << " at h = 1e-4, 5e-5, 2.5e-5 s");
  CHECK(std::abs(std::log2(d1 / d2) - 2.0) <= 0.15);
  CHECK(std::abs(std::log2(d2 / d3) - 2.0) <= 0.15);
  CHECK(d1 <= 1e-8);  // a discretization error, not a physical moment
  double change = 0.0;
  const auto rough = MakeModel(FrictionCase("cundall_strack", 0.3, 2));
  drift(*rough, 400, &change);
  MESSAGE("mu = 0.3: L_z - L_z0 at t = 0.04 s: " << change << " kg m^2/s");
  CHECK(change < -0.05);  // ω_z = +4 rad/s: the friction moment about the vertical is negative
}

TEST_CASE("rigid body friction: an oblique planar impact, friction acts as Coulomb says and stays under mu N") {
  // Planar: no tilt, spin about y, v = (0.3, 0, −1.5) m/s; undamped, no gravity, so the normal impulse J_n = mΔv_z
  // is the elastic one that sets the cap μ W'. The contact point slips along −x (v_x + ω_y r_z < 0): friction
  // pushes the body along +x and its moment lowers ω_y.
  auto make = [](double mu) {
    ParameterSet ps = FrictionCase(mu > 0.0 ? "cundall_strack" : "", mu, 1);
    ps.Set("tilt_deg", 0.0);
    ps.Set("e_cn", 1.0);
    ps.Set("g", 0.0);
    return MakeModel(ps);
  };
  const auto rough = make(0.3), smooth = make(0.0);
  const MechanicalState a = RunTo(*rough, "lie_poisson_midpoint", 0.05, 500);  // past separation (~0.035 s)
  const MechanicalState b = RunTo(*smooth, "lie_poisson_midpoint", 0.05, 500);
  const MechanicalState s0 = rough->InitialState();
  REQUIRE(rough->ContactAt(a.q).geometry.delta < 0.0);
  const double jt = rough->Mass() * (a.v[0] - s0.v[0]), jn = rough->Mass() * (a.v[2] - s0.v[2]);
  MESSAGE("mu = 0.3: J_t = " << jt << " N s, J_n = " << jn << " N s, J_t/(mu J_n) = " << jt / (0.3 * jn)
                             << "; omega_y after: " << rough->WorldAngularVelocity(a).y() << " (mu = 0: "
                             << smooth->WorldAngularVelocity(b).y() << ") rad/s");
  CHECK(a.v[0] > b.v[0] + 0.05);
  CHECK(rough->WorldAngularVelocity(a).y() < smooth->WorldAngularVelocity(b).y() - 0.1);
  // Frictionless: no horizontal force but the discrete gradient's correction term, which acts along ξ = (Δx, θ)
  // and is O(h²) (measured 1.1e-6 m/s).
  CHECK(std::abs(b.v[0] - s0.v[0]) <= 1e-5);
  CHECK(jt > 0.0);
  CHECK(jt <= 0.3 * jn * (1.0 + 1e-6));  // Coulomb (the cap μW' in trapezoidal form vs the normal impulse: O(h²))
  CHECK(jt >= 0.1 * 0.3 * jn);           // and friction is not negligible
}

TEST_CASE("rigid body friction: order 2 in stick and planar sliding, 1 in 3-D sliding (the return mapping)") {
  SUBCASE("stick: mu = 5, cundall_strack, spin about x") {
    for (double p : ObservedOrders(*MakeModel(FrictionCase("cundall_strack", 5.0, 0)))) CHECK(std::abs(p - 2.0) <= 0.15);
  }
  SUBCASE("planar sliding: mu = 0.3, cundall_strack, spin about y, no tilt") {
    ParameterSet ps = FrictionCase("cundall_strack", 0.3, 1);
    ps.Set("tilt_deg", 0.0);
    for (double p : ObservedOrders(*MakeModel(ps))) CHECK(std::abs(p - 2.0) <= 0.15);
  }
  SUBCASE("3-D sliding: mu = 0.3, spin about x, the slip direction turns") {
    for (const std::string law : {"cundall_strack", "mindlin_integral"}) {
      CAPTURE(law);
      for (double p : ObservedOrders(*MakeModel(FrictionCase(law, 0.3, 0)))) CHECK(std::abs(p - 1.0) <= 0.15);
    }
  }
}

TEST_CASE("rigid body friction: rk4 and dopri5 converge to the conserving solution") {
  const double t_end = 0.024;
  for (double mu : {0.3, 5.0}) {
    const auto model = MakeModel(FrictionCase("cundall_strack", mu, 0));
    const MechanicalState ref = RunTo(*model, "lie_poisson_midpoint", t_end, 5120);
    const double ref_error = StateDistance(*model, ref, RunTo(*model, "lie_poisson_midpoint", t_end, 2560));
    for (const std::string explicit_scheme : {"rk4", "dopri5"}) {
      const double d240 = StateDistance(*model, RunTo(*model, explicit_scheme, t_end, 240), ref);
      const double d480 = StateDistance(*model, RunTo(*model, explicit_scheme, t_end, 480), ref);
      CAPTURE(mu);
      CAPTURE(explicit_scheme);
      MESSAGE("mu = " << mu << ", " << explicit_scheme << ": |state - conserving(5120)| at 240 / 480 steps: " << d240
                      << " / " << d480 << " (the reference's own error ~ " << ref_error << ")");
      if (mu < 1.0) {
        // Sliding: every scheme's history step is first order (above), so the gap halves with h.
        CHECK(std::abs(std::log2(d240 / d480) - 1.0) <= 0.15);
        CHECK(d480 <= 5e-4);
      } else {
        // Stick: agreement to within a few times the conserving reference's own error.
        CHECK(d480 <= 5.0 * ref_error);
      }
    }
  }
}
