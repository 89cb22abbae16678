#include "audit/order_audit.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "convergence/exact_convergence.h"
#include "core/errors.h"
#include "integrators/rigid_contact_scheme.h"
#include "models/harmonic_oscillator.h"

namespace impactlab {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kFitMin = 1e-11, kFitMax = 1e-2;  // asymptotic and above round-off

/// Least-squares slope of log y vs log x over the points with kFitMin < y < kFitMax (nullopt below 3).
std::optional<double> WindowSlope(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!(std::isfinite(y[i]) && y[i] > kFitMin && y[i] < kFitMax)) continue;
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
    ++n;
  }
  if (n < 3) return std::nullopt;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// Smooth problem: m = 2, k = 8 (ω = 2), q₀ = 0.3, v₀ = 0.7, up to T = 7 s (2.23 periods). T is deliberately
// not a whole number of periods: there the O(h) conjugacy error of a first-order symplectic scheme cancels
// (y(T) = y(0)) and it would look second order.
constexpr double kMass = 2.0, kStiffness = 8.0, kQ0 = 0.3, kV0 = 0.7, kSmoothEnd = 7.0;

double SmoothError(Integrator& integrator, int n) {
  const HarmonicOscillator osc(kMass, kStiffness, kQ0, kV0);
  const double w = osc.omega(), t_end = kSmoothEnd;
  MechanicalState s = osc.InitialState();
  integrator.Reset();
  const double h = t_end / n;
  for (int i = 0; i < n; ++i)
    if (integrator.Step(osc, s, h).status != StepStatus::kAccepted) return kNan;
  const double v_exact = -kQ0 * w * std::sin(w * t_end) + kV0 * std::cos(w * t_end);
  return std::hypot(s.q[0] - osc.ExactPosition(t_end), (s.v[0] - v_exact) / w);
}

/// Undamped Hertz contact oscillator m = k = v₀ = 1, approaching the wall from δ = 0 (t_c = 3.218 s).
ModelInstance HertzOscillator() {
  ParameterSet p;
  p.Set("normal_law", std::string("hertz"));
  p.Set("k", 1.0);
  p.Set("m", 1.0);
  p.Set("v0", 1.0);
  p.Set("e", 1.0);
  p.Set("damping", std::string("tsuji"));
  p.Set("initial_gap", 0.0);
  return ModelRegistry().Get("contact_oscillator").make(p);
}

double ContactError(Integrator& integrator, const ModelInstance& model, const ExactReference& ref, double dt) {
  try {
    return MeasureAgainstExact(*model.system, integrator, ref, dt).trajectory;
  } catch (const StepFailure&) {
    return kNan;
  }
}

ParameterSet ToleranceParameters(double rtol) {
  ParameterSet p;
  for (const char* key : {"rk_rtol", "cvode_rtol", "siconos_rtol"}) p.Set(key, rtol);
  for (const char* key : {"rk_atol", "cvode_atol", "siconos_atol"}) p.Set(key, 1e-3 * rtol);
  return p;
}

/// Runs `measure` and turns an InvalidParameter (the scheme refuses the problem) into "not applicable".
template <class F>
AuditMeasure Applicable(F&& measure) {
  try {
    return measure();
  } catch (const InvalidParameter& e) {
    AuditMeasure m;
    m.applicable = false;
    m.not_applicable_reason = e.what();
    return m;
  }
}

AuditMeasure FixedStepSmooth(const IntegratorFactory& make, int order) {
  AuditMeasure m;
  m.expected = order;
  auto integrator = make(ParameterSet{});
  for (int n = 8; n <= 2048; n *= 2) {
    m.steps.push_back(kSmoothEnd / n);
    m.errors.push_back(SmoothError(*integrator, n));
  }
  m.measured = WindowSlope(m.steps, m.errors);
  m.pass = m.measured && std::abs(*m.measured - m.expected) <= kOrderTolerance;
  return m;
}

AuditMeasure FixedStepContact(const IntegratorFactory& make, int order) {
  AuditMeasure m;
  m.expected = std::min<double>(order, kAuditContactExponent + 1.0);
  auto integrator = make(ParameterSet{});
  const ModelInstance model = HertzOscillator();
  const ExactReference ref = MakeExactReference(*model.system);
  for (double dt = 0.2; dt > 0.2 / 300.0; dt /= 2.0) {
    m.steps.push_back(dt);
    m.errors.push_back(ContactError(*integrator, model, ref, dt));
  }
  m.measured = WindowSlope(m.steps, m.errors);
  m.pass = m.measured && std::abs(*m.measured - m.expected) <= kOrderTolerance;
  return m;
}

const std::vector<double>& AuditTolerances() {
  static const std::vector<double> t{1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
  return t;
}

AuditMeasure AdaptiveSmooth(const IntegratorFactory& make) {
  AuditMeasure m;
  m.expected = 1.0;
  for (double rtol : AuditTolerances()) {
    auto integrator = make(ToleranceParameters(rtol));
    m.steps.push_back(rtol);
    m.errors.push_back(SmoothError(*integrator, 8));
  }
  m.measured = WindowSlope(m.steps, m.errors);
  m.pass = m.measured && *m.measured >= kToleranceSlopeMin && *m.measured <= kToleranceSlopeMax;
  return m;
}

AuditMeasure AdaptiveContact(const IntegratorFactory& make) {
  AuditMeasure m;
  m.expected = 1.0;
  const ModelInstance model = HertzOscillator();
  const ExactReference ref = MakeExactReference(*model.system);
  for (double rtol : AuditTolerances()) {
    auto integrator = make(ToleranceParameters(rtol));
    m.steps.push_back(rtol);
    m.errors.push_back(ContactError(*integrator, model, ref, 0.1));
  }
  m.measured = WindowSlope(m.steps, m.errors);
  m.pass = m.measured && *m.measured >= kToleranceSlopeMin && *m.measured <= kToleranceSlopeMax;
  return m;
}

AuditMeasure ExactContact(const IntegratorFactory& make) {
  AuditMeasure m;
  m.expected = 0.0;
  auto integrator = make(ParameterSet{});
  const ModelInstance model = HertzOscillator();
  const ExactReference ref = MakeExactReference(*model.system);
  const double dt = ref.solution.contact_time() / 16.0;
  m.steps.push_back(dt);
  m.errors.push_back(ContactError(*integrator, model, ref, dt));
  m.measured = m.errors.back();
  m.pass = std::isfinite(*m.measured) && *m.measured <= kExactErrorMax;
  return m;
}

AuditMeasure ExactSmooth(const IntegratorFactory& make) {
  AuditMeasure m;
  auto integrator = make(ParameterSet{});
  m.steps.push_back(kSmoothEnd / 16);
  m.errors.push_back(SmoothError(*integrator, 16));
  m.measured = m.errors.back();
  m.pass = std::isfinite(*m.measured) && *m.measured <= kExactErrorMax;
  return m;
}

}  // namespace

bool OrderAuditRow::pass() const {
  if (!audited()) return false;
  return (!smooth.applicable || smooth.pass) && (!contact.applicable || contact.pass);
}

std::string ToString(AuditKind kind) {
  switch (kind) {
    case AuditKind::kFixedStep: return "fixed step";
    case AuditKind::kAdaptive: return "adaptive";
    case AuditKind::kExact: return "exact";
  }
  return "?";
}

OrderAuditRow AuditIntegrator(const std::string& name, const IntegratorFactory& make) {
  OrderAuditRow row;
  row.integrator = name;
  const auto probe = make(ParameterSet{});
  const IntegratorTraits traits = probe->traits();
  const bool rigid_contact = dynamic_cast<const RigidContactScheme*>(probe.get()) != nullptr;
  row.declared_order = traits.order;
  row.kind = traits.exact ? AuditKind::kExact : traits.adaptive ? AuditKind::kAdaptive : AuditKind::kFixedStep;
  // A rigid-contact scheme (impact law) approximates the K → ∞ limit, not the compliant Hertz trajectory.
  const auto rigid = [&](auto measure) {
    return [&, measure]() -> AuditMeasure {
      if (!rigid_contact) return measure();
      AuditMeasure m;
      m.applicable = false;
      m.not_applicable_reason = name + ": rigid contact with Newton's impact law (the K -> infinity limit), not the "
                                       "compliant contact trajectory the audit measures";
      return m;
    };
  };
  switch (row.kind) {
    case AuditKind::kExact:
      row.smooth = Applicable([&] { return ExactSmooth(make); });
      row.contact = Applicable(rigid([&] { return ExactContact(make); }));
      break;
    case AuditKind::kAdaptive:
      row.smooth = Applicable([&] { return AdaptiveSmooth(make); });
      row.contact = Applicable(rigid([&] { return AdaptiveContact(make); }));
      break;
    case AuditKind::kFixedStep:
      row.smooth = Applicable([&] { return FixedStepSmooth(make, traits.order); });
      row.contact = Applicable(rigid([&] { return FixedStepContact(make, traits.order); }));
      break;
  }
  return row;
}

std::vector<OrderAuditRow> AuditOrders(const Registry<IntegratorFactory>& registry) {
  std::vector<OrderAuditRow> rows;
  for (const auto& [name, entry] : registry.entries()) rows.push_back(AuditIntegrator(name, entry.make));
  return rows;
}

}  // namespace impactlab
