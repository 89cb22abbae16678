#include "audit/integrator_audit.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "core/checks.h"
#include "core/errors.h"
#include "models/harmonic_oscillator.h"
#include "registry/registries.h"
#include "system/constant_mass_system.h"

namespace impactlab {

namespace {

/// Free particle in 2-D: q(t) = q₀ + v₀ t exactly.
class FreeParticle2d final : public ConstantMassSystem {
 public:
  std::string name() const override { return "free_particle"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::Vector2d(0.25, -1.5);
    s.v = Eigen::Vector2d(2.0, 0.5);
    s.z.resize(0);
    return s;
  }
  Eigen::VectorXd MassDiagonal() const override { return Eigen::Vector2d(1.5, 1.5); }
  double Potential(const Eigen::VectorXd&) const override { return 0.0; }
  void PotentialGradient(const Eigen::VectorXd&, Eigen::Ref<Eigen::VectorXd> g) const override { g.setZero(); }
  bool velocity_dependent_forces() const override { return false; }
};

bool Close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }

}  // namespace

IntegratorContractReport CheckIntegratorContract(const std::string& name, const ParameterSet& options) {
  IntegratorContractReport rep;
  rep.integrator = name;
  auto integrator = IntegratorRegistry().Get(name).make(options);
  auto fail = [&](const std::string& what) { rep.failures.push_back(what); };
  if (integrator->name() != name) fail("name() = \"" + integrator->name() + "\" differs from the registered name");
  if (integrator->traits().reference.empty()) fail("no reference declared in traits()");
  const FreeParticle2d particle;
  MechanicalState s = particle.InitialState();
  const MechanicalState s0 = s;
  for (double bad : {0.0, -1e-3, std::numeric_limits<double>::quiet_NaN()}) {
    try {
      (void)integrator->Step(particle, s, bad);
      fail("Step(h = " + InvalidParameter::FormatNumber(bad) + ") accepted");
    } catch (const InvalidParameter&) {
    }
    if (!s.SameValues(s0)) fail("state changed by a rejected Step(h = " + InvalidParameter::FormatNumber(bad) + ")");
    s = s0;
  }
  try {
    (void)integrator->Step(particle, s, 0.125);
  } catch (const InvalidParameter& e) {
    rep.supports_free_particle = false;
    if (std::string(e.what()).find(name) == std::string::npos)
      fail("refuses the free particle without naming itself: " + std::string(e.what()));
    if (!s.SameValues(s0)) fail("state changed by a refused step");
    return rep;
  }
  integrator->Reset();
  integrator->ResetStatistics();
  s = s0;
  for (int i = 0; i < 8; ++i) {
    const StepResult r = integrator->Step(particle, s, 0.125);
    if (r.status != StepStatus::kAccepted) {
      fail("free-particle step " + std::to_string(i) + " not accepted: " + r.message);
      return rep;
    }
  }
  if (!Close(s.t, 1.0, 1e-15)) fail("t = " + InvalidParameter::FormatNumber(s.t) + " after 8 steps of 0.125 s");
  for (int k = 0; k < 2; ++k) {
    if (!Close(s.q[k], s0.q[k] + s0.v[k] * s.t, 1e-12)) fail("free particle: q[" + std::to_string(k) + "] not exact");
    if (!Close(s.v[k], s0.v[k], 1e-12)) fail("free particle: v[" + std::to_string(k) + "] not exact");
  }
  if (integrator->statistics().steps != 8)
    fail("statistics().steps = " + std::to_string(integrator->statistics().steps) + " after 8 steps");
  return rep;
}

OrderAuditReport AuditOrder(const std::string& name, const ParameterSet& options, int n0, int levels) {
  if (n0 < 4) throw InvalidParameter("n0", n0, "an integer >= 4");
  if (levels < 3 || levels > 16) throw InvalidParameter("levels", levels, "an integer in [3, 16]");
  constexpr double m = 2.0, k = 8.0, q0 = 0.3, v0 = 0.7;
  const HarmonicOscillator osc(m, k, q0, v0);
  const double w = osc.omega();
  const double t_end = 2.0 * std::numbers::pi;  // two periods (ω = 2)
  auto integrator = IntegratorRegistry().Get(name).make(options);
  OrderAuditReport rep;
  rep.integrator = name;
  rep.declared_order = integrator->traits().order;
  for (int i = 0; i < levels; ++i) {
    const long n = static_cast<long>(n0) << i;
    const double h = t_end / static_cast<double>(n);
    integrator->Reset();
    MechanicalState s = osc.InitialState();
    for (long j = 0; j < n; ++j) {
      const StepResult r = integrator->Step(osc, s, h);
      if (r.status != StepStatus::kAccepted)
        throw StepFailure("order audit of '" + name + "': step " + std::to_string(j) + " at h = " +
                          InvalidParameter::FormatNumber(h) + " not accepted: " + r.message);
    }
    const double v_exact = -q0 * w * std::sin(w * t_end) + v0 * std::cos(w * t_end);
    rep.dt.push_back(h);
    rep.error.push_back(std::hypot(s.q[0] - osc.ExactPosition(t_end), (s.v[0] - v_exact) / w));
  }
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double nl = static_cast<double>(levels);
  bool finite = true;
  for (int i = 0; i < levels; ++i) {
    if (!(rep.error[i] > 0.0) || !std::isfinite(rep.error[i])) finite = false;
    const double x = std::log(rep.dt[i]), y = std::log(rep.error[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  if (finite) rep.observed_order = (nl * sxy - sx * sy) / (nl * sxx - sx * sx);
  rep.passes = rep.observed_order && std::abs(*rep.observed_order - rep.declared_order) <= 0.15 &&
               rep.error.back() > 1e-13;
  return rep;
}

}  // namespace impactlab
