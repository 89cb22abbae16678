// The order audit (validation/audit/order_audit.h) iterates the integrator registry: every registered
// scheme's measured order agrees with its declared traits(), and a test-only integrator registered with a
// wrong declared order fails the audit (while the same scheme declaring its true order passes).
#include <doctest/doctest.h>

#include "audit/order_audit.h"
#include "report/known_deviations.h"
#include "registry/registries.h"
#include "studies/order_audit_study.h"

using namespace impactlab;

namespace {

/// Symplectic Euler (v ← v + h a(q), q ← q + h v): first order. `declared` is what traits() claims.
class SymplecticEuler final : public Integrator {
 public:
  explicit SymplecticEuler(int declared) : declared_(declared) {}
  std::string name() const override { return "test_symplectic_euler"; }
  IntegratorTraits traits() const override {
    IntegratorTraits t;
    t.order = declared_;
    t.reference = "test only";
    return t;
  }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) override {
    Eigen::VectorXd a(state.v.size()), q_dot(state.q.size());
    system.Acceleration(step_start(), a);
    state.v = step_start().v + h * a;
    system.PositionRate(state, q_dot);
    state.q = step_start().q + h * q_dot;
    state.t = step_start().t + h;
    system.UpdateHistory(step_start(), state);
    return {};
  }
  int declared_;
};

IntegratorFactory EulerDeclaring(int order) {
  return [order](const ParameterSet&) { return std::make_unique<SymplecticEuler>(order); };
}

}  // namespace

TEST_CASE("order audit: every registered integrator matches its declared traits") {
  const auto rows = AuditOrders(IntegratorRegistry());
  REQUIRE(rows.size() == IntegratorRegistry().names().size());  // nothing skipped silently
  int audited = 0;
  for (const auto& row : rows) {
    INFO(OrderAuditTable({row}));
    if (!row.audited()) {  // refuses both 1-D problems (e.g. planar-only EFDA): named, never silently passed
      CHECK_FALSE(row.smooth.not_applicable_reason.empty());
      CHECK_FALSE(row.contact.not_applicable_reason.empty());
      continue;
    }
    ++audited;
  }
  CHECK(audited >= static_cast<int>(rows.size()) - 1);
  // The claims are a pure function of the rows; reviewed like every claim of `validate`: each passes or sits in
  // its reviewed known-deviation band (rkf78 through contact, validation/known_deviations.toml).
  std::vector<Claim> claims = OrderAuditClaims(rows);
  ReviewClaims(claims, KnownDeviations::Load(KnownDeviations::DefaultPath()), false);
  for (const auto& c : claims) {
    INFO(c.id << " measured " << c.measured << " status " << ToString(c.status));
    CHECK(IsAcceptable(c.status));
  }
}

TEST_CASE("order audit: a test-only integrator with a wrong declared order fails") {
  Registry<IntegratorFactory> registry = IntegratorRegistry();  // a copy: the real registry stays untouched
  registry.Add("test_euler_declares_2", "test only", EulerDeclaring(2));
  registry.Add("test_euler_declares_1", "test only", EulerDeclaring(1));
  const auto rows = AuditOrders(registry);
  bool seen_wrong = false, seen_right = false;
  for (const auto& row : rows) {
    if (row.integrator == "test_euler_declares_2") {
      seen_wrong = true;
      INFO(OrderAuditTable({row}));
      REQUIRE(row.smooth.measured.has_value());
      CHECK(*row.smooth.measured == doctest::Approx(1.0).epsilon(0.1));  // measured, not declared
      CHECK_FALSE(row.smooth.pass);
      CHECK_FALSE(row.pass());
    }
    if (row.integrator == "test_euler_declares_1") {
      seen_right = true;
      INFO(OrderAuditTable({row}));
      CHECK(row.smooth.pass);
    }
  }
  CHECK(seen_wrong);
  CHECK(seen_right);
}

TEST_CASE("order audit: claims from hand-made rows, without simulation") {
  OrderAuditRow fixed;
  fixed.integrator = "x";
  fixed.declared_order = 4;
  fixed.smooth.measured = 3.5;
  fixed.smooth.expected = 4;
  fixed.contact.applicable = false;
  fixed.contact.not_applicable_reason = "refused";
  OrderAuditRow exact;
  exact.integrator = "y";
  exact.kind = AuditKind::kExact;
  exact.smooth.applicable = false;
  exact.contact.measured = 1e-14;
  const auto claims = OrderAuditClaims({fixed, exact});
  REQUIRE(claims.size() == 2);
  CHECK(claims[0].id == "order_audit.x.smooth");
  CHECK_FALSE(claims[0].pass);  // |3.5 − 4| > 0.2
  CHECK(claims[1].id == "order_audit.y.contact");
  CHECK(claims[1].pass);
  CHECK(OrderAuditTable({fixed}).find("contact n/a: refused") != std::string::npos);
}
