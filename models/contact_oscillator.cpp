#include "contact_oscillator.h"

#include <cmath>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "core/checks.h"
#include "exact/critical_time_step.h"

namespace impactlab {

void ContactOscillatorParameters::Validate() const {
  RequirePositive("m", mass);
  RequirePositive("v0", impact_velocity);
  RequireNonNegative("initial_gap", initial_gap);
  RequireNonNegative("gravity", gravity);
}

ContactOscillator::ContactOscillator(ContactOscillatorParameters parameters, DampedNormalLaw law)
    : p_(parameters), law_(std::move(law)) {
  p_.Validate();
  if (!law_.elastic || !law_.damping) throw InvalidParameter("normal_law", "<null>", "an elastic and a damping law");
  damped_ = law_.damping->name() != "none";
  ContactTerm wall;
  wall.kind = ContactTerm::Kind::kWall;
  wall.wall_gradient = {{0, -1.0}};  // δ = −y
  wall.elastic = law_.elastic;
  wall.damping = law_.damping;
  terms_.push_back(wall);
  linear_potential_ = LinearPotentialCoefficients();
}

MechanicalState ContactOscillator::InitialState() const {
  MechanicalState s;
  s.q = Eigen::VectorXd::Constant(1, p_.initial_gap);
  s.v = Eigen::VectorXd::Constant(1, -p_.impact_velocity);
  s.z.resize(0);
  return s;
}

double ContactOscillator::Potential(const Eigen::VectorXd& q) const {
  return law_.elastic->Potential(-q[0]) + p_.mass * p_.gravity * q[0];
}
void ContactOscillator::PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const {
  g[0] = -law_.elastic->Force(-q[0]) + p_.mass * p_.gravity;
}
Eigen::SparseMatrix<double> ContactOscillator::PotentialHessian(const Eigen::VectorXd& q) const {
  Eigen::SparseMatrix<double> h(1, 1);
  h.insert(0, 0) = law_.elastic->Stiffness(-q[0]);
  return h;
}
Eigen::SparseMatrix<double> ContactOscillator::DampingMatrix(const Eigen::VectorXd& q) const {
  Eigen::SparseMatrix<double> c(1, 1);
  c.insert(0, 0) = law_.damping->Coefficient(-q[0]);
  return c;
}
void ContactOscillator::AppendPotentialHessianEntries(const Eigen::VectorXd& q, SparseEntries& entries) const {
  entries.emplace_back(0, 0, law_.elastic->Stiffness(-q[0]));
}
void ContactOscillator::AppendDampingMatrixEntries(const Eigen::VectorXd& q, SparseEntries& entries) const {
  entries.emplace_back(0, 0, law_.damping->Coefficient(-q[0]));
}
void ContactOscillator::AppendDampingForceGradientEntries(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                                          SparseEntries& entries) const {
  entries.emplace_back(0, 0, -law_.damping->CoefficientDerivative(-q[0]) * w[0]);  // d/dq C(−q) w
}
void ContactOscillator::ExternalForce(double, Eigen::Ref<Eigen::VectorXd> f) const { f[0] = 0.0; }

void ContactOscillator::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  const double delta = -s.q[0], delta_dot = -s.v[0];
  const double fn = delta > 0.0 ? law_.Force(delta, delta_dot) : 0.0;
  v_dot[0] = fn / p_.mass - p_.gravity;
}
double ContactOscillator::DissipationPower(const MechanicalState& s) const {
  const double delta = -s.q[0], delta_dot = -s.v[0];
  return delta > 0.0 ? law_.DissipationPower(delta, delta_dot) : 0.0;
}
double ContactOscillator::PotentialEnergy(const MechanicalState& s) const {
  // Gravity's potential is measured from the initial height so that E(0) = kinetic energy when y₀ = 0.
  return Potential(s.q);
}

void ContactOscillator::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                        std::span<double> overlap_rate) const {
  overlap[0] = -s.q[0];
  overlap_rate[0] = -s.v[0];
}

void ContactOscillator::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const double delta = -s.q[0], delta_dot = -s.v[0];
  values = {delta, delta_dot, delta > 0.0 ? law_.Force(delta, delta_dot) : 0.0};
}

std::optional<PowerLawOscillatorParameters> ContactOscillator::PowerLawOscillator(std::string* why_not) const {
  auto fail = [why_not](const std::string& reason) {
    if (why_not) *why_not = reason;
    return std::optional<PowerLawOscillatorParameters>{};
  };
  if (p_.gravity != 0.0) return fail("gravity = " + InvalidParameter::FormatNumber(p_.gravity) + " (must be 0)");
  if (!dynamic_cast<const PowerLaw*>(law_.elastic.get()))
    return fail("normal law '" + law_.elastic->name() + "' is not a power law F = k delta^p");
  PowerLawOscillatorParameters out;
  out.mass = p_.mass;
  out.stiffness = law_.elastic->coefficient();
  out.exponent = law_.elastic->exponent();
  out.overlap_per_coordinate = -1.0;
  const auto* d = law_.damping.get();
  const double p = out.exponent;
  const bool tsuji_form = dynamic_cast<const NoDamping*>(d) || dynamic_cast<const TsujiDamping*>(d) ||
                          dynamic_cast<const UniversalDamping*>(d) ||
                          (dynamic_cast<const LinearViscousDamping*>(d) && p == 1.0) ||
                          (dynamic_cast<const KuwabaraKonoDamping*>(d) && p == 2.0);
  if (!tsuji_form)
    return fail("damping '" + d->name() + "' is not of the Tsuji form C = alpha sqrt(m k) delta^((p-1)/2) for p = " +
                InvalidParameter::FormatNumber(p));
  // α from C(1) = α √(m k); the form is checked at two more overlaps (a Tsuji law bound to another p or m
  // would fail here).
  const double scale = std::sqrt(out.mass * out.stiffness);
  out.alpha = d->Coefficient(1.0) / scale;
  for (double delta : {0.25, 4.0}) {
    const double expected = out.alpha * scale * std::pow(delta, 0.5 * (p - 1.0));
    if (std::abs(d->Coefficient(delta) - expected) > 1e-12 * std::max(1.0, std::abs(expected)))
      return fail("damping '" + d->name() + "' is not bound to this oscillator's m, k, p");
  }
  return out;
}

}  // namespace impactlab

// --- guards (docs/reliability.md) ---------------------------------------------------------------------
namespace impactlab {

// Δt_crit of the power-law oscillator (lib/exact/critical_time_step, docs/theory.md §4): the tangent-stiffness
// bound at the undamped peak overlap, reduced by Belytschko's damping factor (√(1+ζ²) − ζ), the smaller
// (more conservative) of the estimates there. The impact speed includes the free fall over the initial gap.
std::optional<double> ContactOscillator::CriticalTimeStep(const MechanicalState& s) const {
  (void)s;
  double m = p_.mass, k = law_.elastic->coefficient(), p = law_.elastic->exponent(), alpha = 0.0;
  if (const auto osc = PowerLawOscillator(nullptr)) {
    m = osc->mass;
    k = osc->stiffness;
    p = osc->exponent;
    alpha = osc->alpha;
  }
  if (!(k > 0.0 && p >= 1.0)) return std::nullopt;
  const double v = std::sqrt(p_.impact_velocity * p_.impact_velocity + 2.0 * p_.gravity * p_.initial_gap);
  const auto c = PowerLawCriticalTimeStep(m, k, p, v, alpha);
  return c.tangent_damped;
}

std::optional<double> ContactOscillator::ContactSize(int contact) const {
  (void)contact;
  if (p_.contact_radius > 0.0) return p_.contact_radius;
  return std::nullopt;
}

}  // namespace impactlab
