// EFDA per-step conservation laws (docs/efda.md §3): two-body frictional contacts of ellipses, isolated
// (no walls, no gravity) — stick conserves E = K + V_N + V_T, slip dissipates exactly the Coulomb slip
// work, linear and angular momentum are conserved; ellipse–wall with gravity; and a rigid-limit check of the
// slip work (a disk sliding on a floor reaches v = 2/3 v0, the rigid closed form); the carom's booked slip work
// against the Coulomb integral taken from the trajectory; and ellipses_multi's largest lattice (200 ellipses), where
// the same per-step identities hold with many contacts at once.
#include <doctest/doctest.h>

#include "core/errors.h"

#include <cmath>
#include <numbers>

#include "integrators/efda.h"
#include "core/parameter_set.h"
#include "models/ellipse_box.h"
#include "models/ellipses_multi.h"
#include "models/planar_ellipses.h"

using namespace impactlab;

namespace {
// Per-step identities hold to round-off of the fixed point (converged to 4e-15 relative in q); energies are
// sums of O(1) terms, so 1e-12 relative to E0 leaves a margin of ~100 over the observed round-off.
constexpr double kPerStepEnergyTol = 1e-12;
constexpr double kMomentumTol = 1e-12;

PlanarEllipsesConfig TwoEllipses(double mu) {
  PlanarEllipsesConfig c;
  c.bodies = {Ellipse{0.075, 0.03, 1.0}, Ellipse{0.05, 0.04, 0.7}};
  c.penalty.normal_stiffness = 1e5;
  c.penalty.tangential_stiffness = 5e4;
  c.penalty.friction_coefficient = mu;
  c.q0.resize(6);
  c.v0.resize(6);
  // Oblique, off-centre approach with spin: contact normal, tangential and rotational motion all active.
  c.q0 << 0.0, 0.0, 0.4, 0.16, 0.03, -0.9;
  c.v0 << 0.6, 0.1, 2.0, -0.5, -0.05, -3.0;
  return c;
}

struct RunStats {
  int steps_in_contact = 0, stick_steps = 0, slip_steps = 0;
  int first_slip_after_stick = -1;  ///< contact-step index of the first slip step that follows a stick step
  double max_energy_defect = 0.0, max_momentum_drift = 0.0, slip_work = 0.0;
};

RunStats RunPair(double mu, double dt, int steps) {
  PlanarEllipses sys(TwoEllipses(mu));
  Efda efda;
  MechanicalState s = sys.InitialState();
  const double e0 = sys.TotalEnergy(s);
  const Eigen::Vector3d p0 = *sys.LinearMomentum(s), l0 = *sys.AngularMomentum(s);
  RunStats st;
  for (int n = 0; n < steps; ++n) {
    const double e_before = sys.TotalEnergy(s);
    REQUIRE(efda.Step(sys, s, dt).status == StepStatus::kAccepted);
    const EfdaStepReport& r = efda.last_step();
    const double e_after = sys.TotalEnergy(s);
    st.max_energy_defect = std::max(st.max_energy_defect, std::abs(e_after - e_before + r.total()) / e0);
    st.max_momentum_drift = std::max({st.max_momentum_drift, (*sys.LinearMomentum(s) - p0).norm() / p0.norm(),
                                      std::abs((*sys.AngularMomentum(s) - l0).z()) / std::abs(l0.z())});
    if (r.active_contacts > 0) ++st.steps_in_contact;
    if (r.slipping_contacts > 0 && st.stick_steps > 0 && st.first_slip_after_stick < 0)
      st.first_slip_after_stick = st.steps_in_contact - 1;
    if (r.sticking_contacts > 0) ++st.stick_steps;
    if (r.slipping_contacts > 0) {
      ++st.slip_steps;
      CHECK(r.slip_work >= 0.0);
    }
    if (r.slipping_contacts == 0) {
      // No slip and no dashpots: the step conserves E exactly (apart from a spring released at opening).
      CHECK(std::abs(e_after - e_before + r.release_energy) / e0 <= kPerStepEnergyTol);
    }
    st.slip_work += r.slip_work;
  }
  return st;
}
}  // namespace

TEST_CASE("EFDA two-body stick conserves energy and momenta per step") {
  const RunStats st = RunPair(5.0, 2e-5, 6000), fine = RunPair(5.0, 1e-5, 12000);
  REQUIRE(st.steps_in_contact > 50);
  // μ = 5: the contact sticks from onset until, shortly before opening, F_N → 0 shrinks the Coulomb cone
  // below the spring force and the spring unloads by slipping (the decision is made at each step's end, a
  // return mapping). That slip is one contiguous run at the end of the contact, and a physical phase: its
  // duration is the same at dt and dt/2 to within a step (2e-5 s: 3 steps, 1e-5 s: 5 steps, ≈ 5e-5 s).
  CHECK(st.stick_steps + st.slip_steps == st.steps_in_contact);
  CHECK(st.first_slip_after_stick == st.steps_in_contact - st.slip_steps);
  CHECK(fine.first_slip_after_stick == fine.steps_in_contact - fine.slip_steps);
  CHECK(st.slip_steps >= 1);
  CHECK(std::abs(st.slip_steps * 2e-5 - fine.slip_steps * 1e-5) <= 2e-5);
  CHECK(st.slip_steps * 2e-5 <= 0.03 * st.steps_in_contact * 2e-5);  // a short phase: ≤ 3 % of the contact
  CHECK(st.max_energy_defect <= kPerStepEnergyTol);
  CHECK(st.max_momentum_drift <= kMomentumTol);
}

TEST_CASE("EFDA two-body slip dissipates exactly the Coulomb slip work, momenta conserved") {
  const RunStats st = RunPair(0.1, 2e-5, 6000);
  REQUIRE(st.steps_in_contact > 50);
  CHECK(st.slip_steps > 10);
  CHECK(st.slip_work > 0.0);
  CHECK(st.max_energy_defect <= kPerStepEnergyTol);  // ΔE = −(slip work + release) per step
  CHECK(st.max_momentum_drift <= kMomentumTol);
}

TEST_CASE("EFDA ellipse-wall with gravity and dashpots: step energy balance exact") {
  PlanarEllipsesConfig c;
  c.bodies = {Ellipse{0.075, 0.03, 1.0}};
  c.walls = {Wall::Through({0, 0}, {0, 1})};
  c.gravity = 9.81;
  c.penalty.normal_stiffness = 1e6;
  c.penalty.tangential_stiffness = 1e6;
  c.penalty.normal_damping_ratio = 0.1;
  c.penalty.friction_coefficient = std::tan(15.0 * std::numbers::pi / 180.0);
  c.q0.resize(3);
  c.v0.resize(3);
  c.q0 << 0.45, 0.07, 50.0 * std::numbers::pi / 180.0;
  c.v0 << 1.0, -0.4, 0.0;
  PlanarEllipses sys(c);
  Efda efda;
  MechanicalState s = sys.InitialState();
  const double e0 = sys.KineticEnergy(s);
  double worst = 0.0;
  int slip = 0;
  for (int n = 0; n < 4000; ++n) {
    const double eb = sys.TotalEnergy(s);
    REQUIRE(efda.Step(sys, s, 2e-5).status == StepStatus::kAccepted);
    worst = std::max(worst, std::abs(sys.TotalEnergy(s) - eb + efda.last_step().total()) / e0);
    slip += efda.last_step().slipping_contacts;
  }
  CHECK(slip > 0);
  CHECK(worst <= kPerStepEnergyTol);
  CHECK(s.dissipated > 0.0);
}

TEST_CASE("EFDA disk sliding on a floor: slip work brings it to rolling at v = 2/3 v0 (rigid closed form)") {
  // Rigid limit: m v̇ = −μ m g, I ω̇ = μ m g R with I = m R²/2 (lamina), rolling when v = ω R:
  // v_f = v0 (m R²/I) / (1 + m R²/I) = 2/3 v0; energy lost = slip work = ½ m v0² − ½ m v_f² − ½ I ω_f².
  PlanarEllipsesConfig c;
  const double r = 0.05, m = 1.0, g = 9.81, mu = 0.3, v0 = 1.0;
  c.bodies = {Ellipse{r, r, m}};
  c.walls = {Wall::Through({0, 0}, {0, 1})};
  c.gravity = g;
  c.penalty.normal_stiffness = 1e7;
  c.penalty.tangential_stiffness = 1e7;
  c.penalty.friction_coefficient = mu;
  c.q0.resize(3);
  c.v0.resize(3);
  c.q0 << 0.0, r - m * g / c.penalty.normal_stiffness, 0.0;  // static equilibrium penetration
  c.v0 << v0, 0.0, 0.0;
  PlanarEllipses sys(c);
  Efda efda;
  MechanicalState s = sys.InitialState();
  const double t_roll = v0 / (mu * g * 3.0);
  double slip_work = 0.0, coulomb_integral = 0.0;
  const double dt = 2e-5;
  for (double t = 0; t < 1.5 * t_roll; t += dt) {
    const MechanicalState before = s;
    REQUIRE(efda.Step(sys, s, dt).status == StepStatus::kAccepted);
    slip_work += efda.last_step().slip_work;
    // An estimate that does not share the booking's definition: μ F_N |v_slip| Δt from the trajectory alone
    // (normal force K_N δ of the penetration, slip speed v_x + ω R of the contact point, both at mid-step),
    // over the steps the scheme reports as slipping.
    if (efda.last_step().slipping_contacts > 0) {
      const double delta_mid = r - 0.5 * (before.q[1] + s.q[1]);
      const double v_slip = 0.5 * (before.v[0] + s.v[0]) + r * 0.5 * (before.v[2] + s.v[2]);
      coulomb_integral += mu * c.penalty.normal_stiffness * delta_mid * std::abs(v_slip) * dt;
    }
  }
  CHECK(slip_work == doctest::Approx(coulomb_integral).epsilon(2e-3));
  // Penalty compliance (tangential spring stretch μ m g / K_T ~ 3e-7 m, normal ~1e-6 m) perturbs the rigid
  // answer at the 1e-4 level; 2e-3 relative is the bound for this K and Δt.
  constexpr double kRigidLimitTol = 2e-3;
  CHECK(s.v[0] == doctest::Approx(2.0 / 3.0 * v0).epsilon(kRigidLimitTol));
  CHECK(s.v[2] * (-r) == doctest::Approx(2.0 / 3.0 * v0).epsilon(kRigidLimitTol));
  const double lost = 0.5 * m * v0 * v0 * (1.0 - 4.0 / 9.0) - 0.5 * (0.5 * m * r * r) * std::pow(2.0 / 3.0 * v0 / r, 2);
  CHECK(slip_work == doctest::Approx(lost).epsilon(kRigidLimitTol));
}

TEST_CASE("EFDA rejects a model without a constant-mass contact structure") {
  struct Plain final : MechanicalSystem {
    std::string name() const override { return "plain"; }
    MechanicalState InitialState() const override {
      MechanicalState s;
      s.q = Eigen::VectorXd::Zero(1);
      s.v = Eigen::VectorXd::Zero(1);
      return s;
    }
    void Acceleration(const MechanicalState&, Eigen::Ref<Eigen::VectorXd> a) const override { a.setZero(); }
    double KineticEnergy(const MechanicalState&) const override { return 0.0; }
    double PotentialEnergy(const MechanicalState&) const override { return 0.0; }
  } plain;
  Efda efda;
  MechanicalState s = plain.InitialState();
  CHECK_THROWS_WITH_AS((void)efda.Step(plain, s, 1e-3), doctest::Contains("efda"), InvalidParameter);
  CHECK(s.q == plain.InitialState().q);  // state untouched
}

TEST_CASE("EFDA sticking pair in fast rigid rotation: energy and momenta per step (near-rigid Gonzalez case)") {
  // The relative motion is tiny against the common rotation, the regime where the momentum-neutral
  // Gonzalez denominator d·Δq is smallest (docs/efda.md §8).
  for (double spin : {1.0, 100.0}) {
    PlanarEllipsesConfig c;
    c.bodies = {Ellipse{0.05, 0.05, 1.0}, Ellipse{0.05, 0.03, 1.0}};
    c.penalty.normal_stiffness = 1e5;
    c.penalty.tangential_stiffness = 1e5;
    c.penalty.friction_coefficient = 5.0;
    c.q0.resize(6);
    c.v0.resize(6);
    const double d = 0.0999;  // overlap 1e-4 m
    c.q0 << -d / 2, 0, 0, d / 2, 0, 0;
    c.v0 << 0, -spin * d / 2, spin, 0, spin * d / 2, spin;  // rigid rotation about the origin
    PlanarEllipses sys(c);
    Efda efda;
    MechanicalState s = sys.InitialState();
    const double e0 = sys.TotalEnergy(s);
    const double l0 = sys.AngularMomentum(s)->z();
    double worst = 0.0, l_drift = 0.0;
    for (int n = 0; n < 5000; ++n) {
      const double eb = sys.TotalEnergy(s);
      REQUIRE(efda.Step(sys, s, 2e-5).status == StepStatus::kAccepted);
      worst = std::max(worst, std::abs(sys.TotalEnergy(s) - eb + efda.last_step().total()) / e0);
      l_drift = std::max(l_drift, std::abs(sys.AngularMomentum(s)->z() - l0) / std::abs(l0));
      CHECK(efda.last_step().correction_skipped == 0);
    }
    CHECK(worst <= kPerStepEnergyTol);
    CHECK(l_drift <= kMomentumTol);
  }
}

TEST_CASE("EFDA carom (ellipse_box): booked slip work against the Coulomb integral taken from the trajectory") {
  // The booking: W_slip = F_T Δs − ½K_T(g₁² − g₀²) per slipping step, F_T = ±μ|F̄_N| with F̄_N the gap quotient
  // ½K_N(δ₀ + δ₁) and Δs = G_T(q_{n+½})·Δq (linearized rotation). The check: the Coulomb integral from the trajectory
  // alone, per slipping step μ K_N δ(q_{n+½}) · |T·(p₁ − p₀)|, with δ the gap of the mid-step configuration and
  // p₀, p₁ the positions at the step ends of the body's material point that sits at the contact point at mid-step
  // (finite rotation), minus the change of the spring's stored energy ½K_T g² over each slip phase (a state
  // quantity: where a phase starts and where it ends, before a release at opening). The wall is fixed and
  // ξ_N = ξ_T = 0 (the carom defaults), so |F_N| = K_N δ. t < 1 s: the first four impacts, two of them with slip
  // reversal (docs/efda.md §5), one wall at a time (the corner at t ≈ 1.97 s has two contacts in one step, where a
  // per-step "slipping" flag does not say which contact slips).
  const EllipseBoxParameters bp = EllipseBoxParameters::FromParameterSet(ParameterSet{});
  PlanarEllipses sys(MakeEllipseBoxConfig(bp));
  Efda efda;
  MechanicalState s = sys.InitialState();
  const double dt = 2e-5, mu = bp.penalty.friction_coefficient, k_n = bp.penalty.normal_stiffness;
  const double k_t = bp.penalty.tangential_stiffness;
  double booked = 0.0, coulomb = 0.0, spring_change = 0.0, spring_at_phase_ends = 0.0, spring_at_phase_end = 0.0;
  int slipping_steps = 0;
  bool slipping_before = false;
  std::vector<int> slots;
  auto phase_ends = [&](double v_start, double v_end) {
    spring_change += v_end - v_start;
    spring_at_phase_ends += v_start + v_end;
  };
  double v_start = 0.0;
  for (double t = 0.0; t < 1.0; t += dt) {
    const MechanicalState before = s;
    REQUIRE(efda.Step(sys, s, dt).status == StepStatus::kAccepted);
    const EfdaStepReport& r = efda.last_step();
    REQUIRE(r.active_contacts <= 1);
    const bool slipping = r.slipping_contacts > 0;
    if (slipping && !slipping_before) v_start = 0.5 * k_t * before.z.squaredNorm();
    if (!slipping && slipping_before) phase_ends(v_start, spring_at_phase_end);
    if (slipping) {
      ++slipping_steps;
      booked += r.slip_work;
      spring_at_phase_end = 0.5 * k_t * s.z.squaredNorm() + r.release_energy;
      const Eigen::VectorXd qm = 0.5 * (before.q + s.q);
      sys.CandidateSlots(qm, qm, slots);
      for (int slot : slots) {
        const PlanarGap g = sys.Gap(slot, qm);
        if (g.delta <= 0.0) continue;
        const Eigen::Vector2d arm = g.point - Eigen::Vector2d(qm[0], qm[1]);  // at mid-step
        auto material_point = [&](const Eigen::VectorXd& q) {
          const double a = q[2] - qm[2], c = std::cos(a), sn = std::sin(a);
          return Eigen::Vector2d(q[0] + c * arm.x() - sn * arm.y(), q[1] + sn * arm.x() + c * arm.y());
        };
        coulomb += mu * k_n * g.delta * std::abs(g.tangent.dot(material_point(s.q) - material_point(before.q)));
      }
    }
    slipping_before = slipping;
  }
  if (slipping_before) phase_ends(v_start, spring_at_phase_end);
  REQUIRE(slipping_steps > 100);
  MESSAGE("carom, t < 1 s, " << slipping_steps << " slipping steps: booked slip work " << booked
                             << " J; Coulomb integral " << coulomb << " J; spring energy change over the slip phases "
                             << spring_change << " J (at their ends " << spring_at_phase_ends << " J)");
  // What is left is the difference of the two quadratures (mid-step gap vs gap quotient, finite vs linearized
  // rotation of the lever arm), O((ω_N Δt)²) = 7.8e-4 relative at ω_N Δt = 0.028: tolerance 1e-3.
  CHECK(std::abs(booked - (coulomb - spring_change)) <= 1e-3 * booked);
  // Without the spring term the two differ by at most the spring energy where slip phases start and end.
  CHECK(std::abs(booked - coulomb) <= spring_at_phase_ends);
}

TEST_CASE("EFDA on 200 ellipses (ellipses_multi's largest n): energy identity and momenta per step, over ten contacts at once") {
  // The cell-list broad phase (lib/planar/contact_slots.h) lets the lattice grow beyond the old all-pairs limit of
  // 50 bodies. A tight lattice (spacing 0.1005 m against 2a = 0.1 m) contracting at speed 3 m/s, stiffer springs
  // (K_N = K_T = 1e6 N/m, ω ≈ 10³ rad/s, ω dt ≈ 0.05): contacts form within the first steps.
  ParameterSet p;
  p.Set("n", 200.0);
  p.Set("spacing", 0.1005);
  p.Set("speed", 3.0);
  p.Set("K_N", 1e6);
  p.Set("K_T", 1e6);
  PlanarEllipses sys(MakeEllipsesMultiConfig(p));
  REQUIRE(sys.num_contacts() == 200 * 199 / 2);
  Efda efda;
  MechanicalState s = sys.InitialState();
  const double e0 = sys.TotalEnergy(s);
  const Eigen::Vector3d p0 = *sys.LinearMomentum(s), l0 = *sys.AngularMomentum(s);
  const double p_scale = *sys.LinearMomentumScale(s), l_scale = *sys.AngularMomentumScale(s);
  int most_contacts = 0;
  double max_energy_defect = 0.0, max_p_drift = 0.0, max_l_drift = 0.0;
  for (int n = 0; n < 200; ++n) {
    const double e_before = sys.TotalEnergy(s);
    REQUIRE(efda.Step(sys, s, 5e-5).status == StepStatus::kAccepted);
    const EfdaStepReport& r = efda.last_step();
    most_contacts = std::max(most_contacts, r.active_contacts);
    max_energy_defect = std::max(max_energy_defect, std::abs(sys.TotalEnergy(s) - e_before + r.total()) / e0);
    max_p_drift = std::max(max_p_drift, (*sys.LinearMomentum(s) - p0).norm() / p_scale);
    max_l_drift = std::max(max_l_drift, (*sys.AngularMomentum(s) - l0).norm() / l_scale);
  }
  MESSAGE("200 ellipses, 200 EFDA steps: up to ", most_contacts, " contacts at once; per-step |ΔE + booked|/E0 ≤ ",
          max_energy_defect, ", momentum drifts ", max_p_drift, " / ", max_l_drift);
  CHECK(most_contacts > 10);
  CHECK(max_energy_defect <= kPerStepEnergyTol);
  CHECK(max_p_drift <= kMomentumTol);
  CHECK(max_l_drift <= kMomentumTol);
}
