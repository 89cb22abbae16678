#include "contact/contact_law.h"

#include <cmath>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "contact/restitution_calibration.h"
#include "core/errors.h"
#include "state/same_bits.h"

namespace impactlab {

namespace {
// The same coincidence test as DiscreteDerivative's default (scale = |δ₀| + |δ₁|).
bool Coincide(double d0, double d1) {
  return !(std::abs(d1 - d0) > 1e-7 * 2.0 * (std::abs(d0) + std::abs(d1)));
}
}  // namespace

ContactLaw HertzTsujiContactLaw(double hertz_coefficient, double e_n, double mass,
                                std::shared_ptr<const TangentialLaw> tangential) {
  std::shared_ptr<const DampingLaw> damping = std::make_shared<NoDamping>();
  if (e_n < 1.0)
    damping = std::make_shared<TsujiDamping>(TsujiAlphaFromRestitution(e_n, 1.5), mass, hertz_coefficient, 1.5);
  return ContactLaw(std::make_shared<HertzLaw>(hertz_coefficient), damping, std::move(tangential));
}

const std::shared_ptr<const TangentialLaw>& RequireTangentialLaw(const ContactLaw& law, int max_history) {
  const auto& t = law.tangential_ptr();
  if (!t) throw InvalidParameter("tangential_law", "<none>", "a tangential law (mu = 0 for frictionless contact)");
  if (t->history_size() > max_history)
    throw InvalidParameter("tangential_law", t->name(),
                           "a law with at most " + std::to_string(max_history) + " history entries");
  return t;
}

Eigen::Vector3d AlgorithmicTangentialForce(const TangentialResponse& r, double overlap_prev, double overlap) {
  // ½(F_prev + F_t), acting along Δs; on the step where the contact starts only the in-contact part of Δs
  // loads the spring (tangential_law.h), so the force applied along the whole Δs is scaled by that fraction.
  const double fraction = overlap_prev > 0.0 ? 1.0 : overlap / (overlap - overlap_prev);
  return (0.5 * fraction) * (r.previous_force + r.force);
}

ContactLaw::ContactLaw(std::shared_ptr<const NormalContactLaw> elastic, std::shared_ptr<const DampingLaw> damping,
                       std::shared_ptr<const TangentialLaw> tangential)
    : elastic_(std::move(elastic)), damping_(std::move(damping)), tangential_(std::move(tangential)) {
  if (!elastic_) throw InvalidParameter("normal_law", "<none>", "a normal contact law");
  if (!damping_) throw InvalidParameter("damping", "<none>", "a damping law (\"none\" for undamped contact)");
  damped_ = dynamic_cast<const NoDamping*>(damping_.get()) == nullptr;
}

std::string ContactLaw::description() const {
  return elastic_->name() + " + " + damping_->name() + (tangential_ ? " + " + tangential_->name() : "");
}

double ContactLaw::StoredEnergy(double delta, std::span<const double> z) const {
  double w = elastic_->Potential(delta);
  if (tangential_ && delta > 0.0) w += tangential_->StoredEnergy(z, delta);
  return w;
}

TangentialResponse ContactLaw::TangentialStep(const ContactKinematics& k, double elastic_force_end,
                                              std::span<const double> z_prev, std::span<double> z_next,
                                              Eigen::Vector3d& increment_used) const {
  increment_used.setZero();
  if (!tangential_) return {};
  TangentialKinematics tk;
  tk.normal = k.normal;
  tk.delta_n = k.overlap;
  tk.normal_force = elastic_force_end;
  tk.start = k.start_rates;
  TangentialResponse r = EvaluateTangentialStep(*tangential_, tk, k.tangential_increment, k.overlap_prev,
                                                k.normal_force_prev, z_prev, z_next);
  increment_used = tk.displacement_increment;
  return r;
}

ContactResponse ContactLaw::Evaluate(const ContactKinematics& k, std::span<const double> z_prev,
                                     std::span<double> z_next) const {
  ContactResponse r;
  if (!(k.overlap > 0.0)) return r;
  r.active = true;
  r.elastic_normal_force = elastic_->Force(k.overlap);
  const double c = damping_->Coefficient(k.overlap);
  r.normal_force = r.elastic_normal_force + c * k.overlap_rate;
  r.dissipation_power = c * k.overlap_rate * k.overlap_rate;
  r.tangential = TangentialStep(k, r.elastic_normal_force, z_prev, z_next, r.tangential_increment);
  return r;
}

void ContactLaw::EvaluateDiscreteNormal(double delta0, double delta1, double h, DiscreteGradientForm form,
                                        DiscreteContactResponse& r) const {
  const double d0 = delta0, d1 = delta1, dd = d1 - d0;
  const double dm = 0.5 * (d0 + d1);
  // Each law value at an end point is evaluated once: W(δ₀), W(δ₁) (the quotient and the round-off scale), W'(δ₁)
  // (∂W̄'/∂δ₁ and the history's F_n), Φ(δ₀), Φ(δ₁), C(δ₁). The quotients are DiscreteDerivative's
  // (lib/contact/discrete_derivative.h) with scale |δ₀| + |δ₁|: (f(δ₁) − f(δ₀))/Δδ, or f'(δ̄) where δ₀, δ₁ coincide.
  const bool coincide = Coincide(d0, d1);
  const double w0 = elastic_->Potential(d0), w1 = elastic_->Potential(d1);
  const bool quotient_form = form != DiscreteGradientForm::kMidpoint;
  const double f1 = (quotient_form && !coincide) || d1 > 0.0 ? elastic_->Force(d1) : 0.0;
  // Elastic part: W'(δ̄) (midpoint rule) or the difference quotient W̄' (all energy-consistent forms).
  double dw = 0.0;
  if (!quotient_form) {
    r.normal_force = elastic_->Force(dm);
    dw = 0.5 * elastic_->Stiffness(dm);
  } else {
    const double wq = coincide ? elastic_->Force(dm) : (w1 - w0) / dd;
    r.normal_force = wq;
    // ∂W̄'/∂δ₁ = (W'(δ₁) − W̄')/Δδ, with its limit ½W''(δ̄) where the quotient takes the midpoint.
    dw = coincide ? 0.5 * elastic_->Stiffness(dm) : (f1 - wq) / dd;
  }
  // Damping part: C(δ̄) Δδ/h (midpoint rule and Gonzalez's Cartesian form, which damp with C(q_{n+½})) or the
  // Φ-form c̄ Δδ/h, c̄ = (Φ(δ₁) − Φ(δ₀))/Δδ (Simo–Tarnow, invariant form): D_n = c Δδ²/h ≥ 0 in both.
  double cq = 0.0, dc = 0.0;
  if (form == DiscreteGradientForm::kMidpoint || form == DiscreteGradientForm::kCartesian || coincide) {
    cq = damping_->Coefficient(dm);
  } else {
    cq = (damping_->DissipationPotential(d1) - damping_->DissipationPotential(d0)) / dd;
    dc = (damping_->Coefficient(d1) - cq) / dd;
  }
  r.damping_force = cq * dd / h;
  r.normal_force += r.damping_force;
  r.normal_force_derivative = dw + (cq + dc * dd) / h;
  r.damping_work = cq * dd * dd / h;
  r.energy_scale = std::abs(w0) + std::abs(w1) + std::abs(r.normal_force * dd);
  r.elastic_normal_force = d1 > 0.0 ? f1 : 0.0;
}

DiscreteContactResponse ContactLaw::EvaluateDiscrete(double delta0, const ContactKinematics& k1, double h,
                                                     DiscreteGradientForm form, std::span<const double> z_prev,
                                                     std::span<double> z_next, DiscreteNormalMemo* memo) const {
  DiscreteContactResponse r;
  const double d1 = k1.overlap;
  if (memo && memo->normal_valid && SameBits(memo->delta0, delta0) && SameBits(memo->delta1, d1) &&
      SameBits(memo->h, h) && memo->form == form) {
    const DiscreteContactResponse& m = memo->normal;
    r.normal_force = m.normal_force;
    r.damping_force = m.damping_force;
    r.normal_force_derivative = m.normal_force_derivative;
    r.elastic_normal_force = m.elastic_normal_force;
    r.damping_work = m.damping_work;
    r.energy_scale = m.energy_scale;
  } else {
    EvaluateDiscreteNormal(delta0, d1, h, form, r);
    if (memo && !memo->normal_valid) {  // the memo keeps its first evaluation (a Jacobian block's base point)
      memo->normal_valid = true;
      memo->delta0 = delta0;
      memo->delta1 = d1;
      memo->h = h;
      memo->form = form;
      memo->normal = r;
    }
  }
  if (tangential_ && d1 > 0.0) {
    r.tangential = TangentialStep(k1, r.elastic_normal_force, z_prev, z_next, r.tangential_increment);
    r.tangential_force = AlgorithmicTangentialForce(r.tangential, k1.overlap_prev, d1);
  }
  return r;
}

double ContactLaw::CommittedElasticForce(double delta_prev, DiscreteNormalMemo* memo) const {
  if (!(delta_prev > 0.0)) return 0.0;
  if (memo && memo->committed_valid && SameBits(memo->delta_prev, delta_prev)) return memo->committed_force;
  const double force = elastic_->Force(delta_prev);
  if (memo && !memo->committed_valid) {
    memo->committed_valid = true;
    memo->delta_prev = delta_prev;
    memo->committed_force = force;
  }
  return force;
}

}  // namespace impactlab
