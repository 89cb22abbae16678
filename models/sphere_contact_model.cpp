#include "models/sphere_contact_model.h"

#include <array>
#include <cmath>
#include <numbers>

#include "exact/critical_time_step.h"

namespace impactlab {

double SphereMass(double density, double radius) {
  return density * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
}
double SphereInertia(double mass, double radius) { return 0.4 * mass * radius * radius; }
double NormalCompliance(double E, double nu) { return (1.0 - nu * nu) / E; }
double ShearCompliance(double E, double nu) { return (2.0 - nu) / (E / (2.0 * (1.0 + nu))); }

SphereContactModel::SphereContactModel(ContactLaw contact, int books, int law)
    : law_(RequireTangentialLaw(contact, kMaxLawHistory)),
      contact_(std::make_shared<ContactLaw>(std::move(contact))),
      damped_(contact_->damped()),
      books_(books),
      law_at_(law) {}

double SphereContactModel::FrictionCoefficient(int contact) const {
  (void)contact;
  return law_->friction_coefficient();
}

MechanicalState SphereContactModel::ZeroState(int dof, double initial_gap) const {
  MechanicalState s;
  s.q = Eigen::VectorXd::Zero(dof);
  s.v = Eigen::VectorXd::Zero(dof);
  s.z = Eigen::VectorXd::Zero(law_at_ + law_->history_size());
  s.z[books_ + kBookDeltaN] = -initial_gap;
  return s;
}

std::span<const double> SphereContactModel::LawHistory(const Eigen::VectorXd& z) const {
  return {z.data() + law_at_, static_cast<size_t>(law_->history_size())};
}
std::span<double> SphereContactModel::LawHistory(Eigen::VectorXd& z) const {
  return {z.data() + law_at_, static_cast<size_t>(law_->history_size())};
}

void SphereContactModel::EvaluateContactLaw(const Eigen::Vector3d& normal, const Eigen::Vector3d& ds,
                                            const Eigen::VectorXd& z, std::span<double> law_out,
                                            SphereContact& c, const TangentialStartRates* start,
                                            bool at_commit) const {
  c.active = true;
  c.normal_force_elastic = contact_->elastic().Force(c.delta_n);
  c.normal_force = c.normal_force_elastic + contact_->damping().Coefficient(c.delta_n) * c.delta_n_dot;
  TangentialKinematics& k = c.kinematics;
  k.normal = normal;
  k.delta_n = c.delta_n;
  k.normal_force = c.normal_force_elastic;
  if (at_commit && law_out.empty() && start == nullptr) {  // the step is the identity: Δs = 0, δ_n = δ_n,prev
    k.delta_n_prev = c.delta_n;
    k.normal_force_prev = c.normal_force_elastic;
    c.tangential = CommittedTangentialResponse(*law_, LawHistory(z), c.delta_n);
    return;
  }
  k.start = start != nullptr ? *start : TangentialStartRates{};
  std::array<double, kMaxLawHistory> scratch{};
  const std::span<double> z_next = law_out.empty() ? std::span<double>(scratch) : law_out;
  c.tangential = EvaluateTangentialStep(*law_, k, ds, z[books_ + kBookDeltaN], z[books_ + kBookNormalForce],
                                        LawHistory(z), z_next.subspan(0, static_cast<size_t>(law_->history_size())));
}

TangentialStartRates SphereContactModel::StartRates(const MechanicalState& before, const Eigen::Vector3d& slip_velocity,
                                                    double step) const {
  TangentialStartRates r;
  r.slip_velocity = slip_velocity;
  r.overlap_rate = OverlapRate(before);
  const double delta = Overlap(before.q);
  r.normal_force_rate = delta > 0.0 ? contact_->elastic().Stiffness(delta) * r.overlap_rate : 0.0;
  r.step = step;
  return r;
}

DiscreteContactResponse SphereContactModel::EvaluateDiscreteContactLaw(const MechanicalState& before, double delta0,
                                                                       ContactKinematics& k, double h,
                                                                       DiscreteGradientForm form,
                                                                       DiscreteContactStep& out) const {
  out.z_next = before.z;
  k.overlap_prev = before.z[books_ + kBookDeltaN];
  k.normal_force_prev = before.z[books_ + kBookNormalForce];
  return contact_->EvaluateDiscrete(delta0, k, h, form, LawHistory(before.z), LawHistory(out.z_next));
}

std::pair<double, double> SphereContactModel::BookStep(const Eigen::VectorXd& z_before, double delta_n,
                                                       double elastic_normal_force,
                                                       const TangentialResponse& tangential,
                                                       Eigen::VectorXd& z) const {
  const double delta_prev = z_before[books_ + kBookDeltaN];
  double friction_work = 0.0, generated_work = 0.0;
  if (delta_n > 0.0) {
    friction_work = tangential.friction_work;
    generated_work = tangential.generated_work;
    z[books_ + kBookNormalForce] = elastic_normal_force;
  } else {
    // Separation: whatever the spring still stores is released (→ 0 as δ_n → 0; counted as friction work).
    if (delta_prev > 0.0) friction_work = law_->StoredEnergy(LawHistory(z_before), delta_prev);
    for (double& h : LawHistory(z)) h = 0.0;
    z[books_ + kBookNormalForce] = 0.0;
  }
  z[books_ + kBookFrictionWork] += friction_work;
  z[books_ + kBookGeneratedWork] += generated_work;
  z[books_ + kBookDeltaN] = delta_n;
  return {friction_work, generated_work};
}

void SphereContactModel::BookDiscreteStep(const Eigen::VectorXd& z_before, double overlap,
                                          const DiscreteContactResponse& c, DiscreteContactStep& out) const {
  out.damping_work = c.damping_work;
  out.dissipated = c.damping_work;  // friction and generated work are booked in z
  const auto [friction_work, generated_work] = BookStep(z_before, overlap, c.elastic_normal_force, c.tangential, out.z_next);
  out.friction_work = friction_work;
  out.generated_work = generated_work;
}

double SphereContactModel::KineticEnergy(const MechanicalState& s) const {
  return TranslationalKineticEnergy(s) + RotationalKineticEnergy(s);
}
double SphereContactModel::NormalElasticEnergy(const MechanicalState& s) const {
  return contact_->elastic().Potential(Overlap(s.q));
}
double SphereContactModel::TangentialElasticEnergy(const MechanicalState& s) const {
  const double delta = Overlap(s.q);
  if (!(delta > 0.0)) return 0.0;
  return law_->StoredEnergy(LawHistory(s.z), delta);
}
double SphereContactModel::PotentialEnergy(const MechanicalState& s) const {
  return NormalElasticEnergy(s) + TangentialElasticEnergy(s);
}
EnergyTerms SphereContactModel::EnergyBooks(const MechanicalState& s) const {
  EnergyTerms e;
  e.kinetic = KineticEnergy(s);
  e.stored = {{"normal_elastic", NormalElasticEnergy(s)}, {"tangential_elastic", TangentialElasticEnergy(s)}};
  e.damping_work = s.dissipated;
  e.friction_work = FrictionWork(s);
  e.generated_work = GeneratedWork(s);
  return e;
}

double SphereContactModel::DissipationPower(const MechanicalState& s) const {
  const double delta = Overlap(s.q);
  if (!damped_ || !(delta > 0.0)) return 0.0;
  const double rate = OverlapRate(s);
  return contact_->damping().Coefficient(delta) * rate * rate;
}
double SphereContactModel::BalanceResidual(const MechanicalState& s) const {
  const double scale = std::abs(e0_) > 0.0 ? std::abs(e0_) : 1.0;
  return (TotalEnergy(s) + TotalDissipated(s) - e0_) / scale;
}

void SphereContactModel::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                         std::span<double> overlap_rate) const {
  overlap[0] = Overlap(s.q);
  overlap_rate[0] = OverlapRate(s);
}

bool SphereContactModel::AtCoulombCap(const SphereContact& c) const {
  const double cap = law_->friction_coefficient() * c.normal_force_elastic;
  return c.active && cap > 0.0 && c.tangential.force.norm() >= (1.0 - 1e-9) * cap;
}

std::vector<std::string> SphereContactModel::LedgerObservableNames() {
  return {"kinetic_trans_J",       "kinetic_rot_J",   "normal_elastic_J", "tangential_elastic_J",
          "normal_damping_work_J", "friction_work_J", "generated_work_J", "residual_J"};
}

void SphereContactModel::AppendLedgerObservables(const MechanicalState& s, std::vector<double>& values) const {
  values.insert(values.end(), {TranslationalKineticEnergy(s), RotationalKineticEnergy(s), NormalElasticEnergy(s),
                               TangentialElasticEnergy(s), s.dissipated, FrictionWork(s), GeneratedWork(s),
                               TotalEnergy(s) + TotalDissipated(s) - e0_});
}

// Estimate: normal Hertz contact (k_H, mass m, approach speed, Tsuji α = √5 ξ_L(e_n)) as in
// ContactOscillator::CriticalTimeStep; with friction also the tangential spring at the same peak overlap,
// k_t = 8 G* √(R* δ_max) acting on the compliance w (7/(2m) for a sphere on a wall): Δt_t = 2/√(k_t w).
// The smaller one is returned.
std::optional<double> SphereContactModel::HertzCriticalTimeStep(double mass, double approach_speed, double e_n,
                                                                double effective_shear_modulus,
                                                                double effective_radius,
                                                                double tangential_compliance) const {
  if (!(approach_speed > 0.0)) return std::nullopt;
  const double w = law_->friction_coefficient() > 0.0 ? tangential_compliance : 0.0;
  const NormalContactLaw& elastic = contact_->elastic();
  if (elastic.exponent() != 1.5) return std::nullopt;  // the estimate is Hertz's (F = k δ^1.5)
  return HertzMindlinCriticalTimeStep(mass, elastic.coefficient(), approach_speed, e_n, effective_shear_modulus,
                                      effective_radius, w);
}

}  // namespace impactlab
