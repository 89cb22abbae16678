// DiscreteNormalMemo (contact/contact_law.h): ContactLaw::EvaluateDiscrete's normal part kept between calls with
// bitwise the same (δ₀, δ₁, h, form), and CommittedElasticForce's W'(δ_prev). A reused value must be bitwise a
// fresh evaluation's, a changed key must be evaluated again, and a hit must not call the normal laws (its purpose:
// the rotation probes of the sphere assembly's forward-difference Jacobian blocks).
// Closed form pinned: the gap quotient of undamped Hertz, s_n = (W(δ₁) − W(δ₀))/(δ₁ − δ₀), W = (2/5) k δ^{5/2}
// [Simo & Tarnow 1992; Seed003 eq. 8; docs/theory.md §7].
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <memory>

#include "contact/contact_law.h"
#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/tangential/cundall_strack.h"
#include "state/same_bits.h"

using namespace impactlab;

namespace {

// Hertz, counting its evaluations (Potential, Force, Stiffness).
class CountingHertz final : public NormalContactLaw {
 public:
  explicit CountingHertz(double k) : hertz_(k) {}
  std::string name() const override { return "counting_hertz"; }
  std::string reference() const override { return hertz_.reference(); }
  double Potential(double d) const override { return ++calls, hertz_.Potential(d); }
  double Force(double d) const override { return ++calls, hertz_.Force(d); }
  double Stiffness(double d) const override { return ++calls, hertz_.Stiffness(d); }
  double EffectiveStiffness(double d) const override { return hertz_.EffectiveStiffness(d); }
  double coefficient() const override { return hertz_.coefficient(); }
  double exponent() const override { return hertz_.exponent(); }
  mutable int calls = 0;

 private:
  HertzLaw hertz_;
};

constexpr double kHertz = 1.0e9, kMass = 1.0e-3;

struct Fixture {
  std::shared_ptr<CountingHertz> elastic = std::make_shared<CountingHertz>(kHertz);
  ContactLaw law{elastic, std::make_shared<TsujiDamping>(0.3, kMass, kHertz, 1.5),
                 std::make_shared<CundallStrackLaw>(2.0e6, 0.3)};
  std::array<double, 3> z_prev{1.0e-7, -2.0e-8, 0.0}, z_next{}, z_memo{};

  ContactKinematics Kinematics(double delta1) const {
    ContactKinematics k;
    k.overlap = delta1;
    k.normal = Eigen::Vector3d::UnitZ();
    k.tangential_increment = Eigen::Vector3d(3.0e-7, -1.0e-7, 0.0);
    k.overlap_prev = 1.0e-6;
    k.normal_force_prev = law.elastic().Force(1.0e-6);
    return k;
  }
};

void RequireSameResponse(const DiscreteContactResponse& a, const DiscreteContactResponse& b) {
  CHECK(SameBits(a.normal_force, b.normal_force));
  CHECK(SameBits(a.damping_force, b.damping_force));
  CHECK(SameBits(a.normal_force_derivative, b.normal_force_derivative));
  CHECK(SameBits(a.elastic_normal_force, b.elastic_normal_force));
  CHECK(SameBits(a.damping_work, b.damping_work));
  CHECK(SameBits(a.energy_scale, b.energy_scale));
  for (int i = 0; i < 3; ++i) {
    CHECK(SameBits(a.tangential_force[i], b.tangential_force[i]));
    CHECK(SameBits(a.tangential_increment[i], b.tangential_increment[i]));
  }
  CHECK(SameBits(a.tangential.friction_work, b.tangential.friction_work));
}

}  // namespace

TEST_CASE("DiscreteNormalMemo: a hit is bitwise a fresh evaluation and calls no normal law, in every form") {
  for (const DiscreteGradientForm form :
       {DiscreteGradientForm::kMidpoint, DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kInvariantQuotient,
        DiscreteGradientForm::kCartesian}) {
    Fixture f;
    const double h = 1.0e-6, d0 = 1.0e-6, d1 = 1.3e-6;
    const ContactKinematics k = f.Kinematics(d1);
    const DiscreteContactResponse fresh = f.law.EvaluateDiscrete(d0, k, h, form, f.z_prev, f.z_next);
    DiscreteNormalMemo memo;
    const DiscreteContactResponse first = f.law.EvaluateDiscrete(d0, k, h, form, f.z_prev, f.z_memo, &memo);
    RequireSameResponse(first, fresh);
    CHECK(memo.normal_valid);
    const int calls = f.elastic->calls;
    // A probe that changes only the tangential increment (a rotation coordinate): the normal part is reused.
    ContactKinematics probe = k;
    probe.tangential_increment.x() += 1.0e-9;
    const DiscreteContactResponse reused = f.law.EvaluateDiscrete(d0, probe, h, form, f.z_prev, f.z_memo, &memo);
    CHECK(f.elastic->calls == calls);
    const DiscreteContactResponse probe_fresh = f.law.EvaluateDiscrete(d0, probe, h, form, f.z_prev, f.z_next);
    RequireSameResponse(reused, probe_fresh);
    CHECK(SameBits(f.z_memo[0], f.z_next[0]));  // the tangential law's new history as well
  }
}

TEST_CASE("DiscreteNormalMemo: a changed overlap, step, form or sign of zero is evaluated again") {
  Fixture f;
  const double h = 1.0e-6, d0 = 1.0e-6, d1 = 1.3e-6;
  const DiscreteGradientForm gap = DiscreteGradientForm::kGapQuotient;
  DiscreteNormalMemo memo;
  f.law.EvaluateDiscrete(d0, f.Kinematics(d1), h, gap, f.z_prev, f.z_memo, &memo);
  auto check_fresh = [&](double a, double b, double step, DiscreteGradientForm form) {
    const ContactKinematics k = f.Kinematics(b);
    const int calls = f.elastic->calls;
    const DiscreteContactResponse with = f.law.EvaluateDiscrete(a, k, step, form, f.z_prev, f.z_memo, &memo);
    CHECK(f.elastic->calls > calls);  // evaluated, not taken from the memo
    RequireSameResponse(with, f.law.EvaluateDiscrete(a, k, step, form, f.z_prev, f.z_next));
  };
  check_fresh(d0, std::nextafter(d1, 1.0), h, gap);      // δ₁ one ulp up (a position probe)
  check_fresh(std::nextafter(d0, 1.0), std::nextafter(d1, 1.0), h, gap);  // δ₀
  check_fresh(std::nextafter(d0, 1.0), std::nextafter(d1, 1.0), 2.0 * h, gap);  // h
  check_fresh(std::nextafter(d0, 1.0), std::nextafter(d1, 1.0), 2.0 * h, DiscreteGradientForm::kMidpoint);  // form
  // +0.0 and −0.0 are different keys (bitwise comparison), as in every memo of the project.
  check_fresh(0.0, 1.0e-6, h, gap);
  check_fresh(-0.0, 1.0e-6, h, gap);
  // The misses did not replace the first evaluation: the base point is still a hit.
  const ContactKinematics base = f.Kinematics(d1);
  const int calls = f.elastic->calls;
  RequireSameResponse(f.law.EvaluateDiscrete(d0, base, h, gap, f.z_prev, f.z_memo, &memo),
                      f.law.EvaluateDiscrete(d0, base, h, gap, f.z_prev, f.z_next));
  CHECK(f.elastic->calls == calls + 3);  // W(δ₀), W(δ₁), W'(δ₁) of the fresh evaluation only
}

TEST_CASE("DiscreteNormalMemo: the gap quotient of undamped Hertz against its closed form") {
  auto elastic = std::make_shared<HertzLaw>(kHertz);
  const ContactLaw law(elastic, std::make_shared<NoDamping>());
  const double h = 1.0e-6, d0 = 2.0e-6, d1 = 2.5e-6;
  ContactKinematics k;
  k.overlap = d1;
  DiscreteNormalMemo memo;
  std::array<double, 1> none{};
  const auto w = [](double d) { return 0.4 * kHertz * std::pow(d, 2.5); };
  const double closed = (w(d1) - w(d0)) / (d1 - d0);
  for (int call = 0; call < 2; ++call) {  // the evaluation, then the hit
    const DiscreteContactResponse r =
        law.EvaluateDiscrete(d0, k, h, DiscreteGradientForm::kGapQuotient, std::span<const double>(none.data(), 0),
                             std::span<double>(none.data(), 0), &memo);
    CHECK(r.normal_force == doctest::Approx(closed).epsilon(1e-12));
    CHECK(r.elastic_normal_force == doctest::Approx(kHertz * std::pow(d1, 1.5)).epsilon(1e-14));
    CHECK(r.damping_work == 0.0);
  }
}

TEST_CASE("ContactLaw::CommittedElasticForce: W'(δ_prev), 0 out of contact, kept in the memo by bitwise δ_prev") {
  Fixture f;
  DiscreteNormalMemo memo;
  const double d = 1.7e-6;
  CHECK(f.law.CommittedElasticForce(d, &memo) == doctest::Approx(kHertz * std::pow(d, 1.5)).epsilon(1e-14));
  const int calls = f.elastic->calls;
  CHECK(SameBits(f.law.CommittedElasticForce(d, &memo), f.law.elastic().Force(d)));
  CHECK(f.elastic->calls == calls + 1);  // the hit called nothing; the comparison's own Force call is the one
  const double other = std::nextafter(d, 1.0);
  CHECK(SameBits(f.law.CommittedElasticForce(other, &memo), f.law.elastic().Force(other)));
  CHECK(SameBits(memo.delta_prev, d));  // the first δ_prev is kept
  CHECK(f.law.CommittedElasticForce(0.0, &memo) == 0.0);
  CHECK(f.law.CommittedElasticForce(-1.0e-6) == 0.0);
  CHECK(f.law.CommittedElasticForce(std::nan("")) == 0.0);
}
