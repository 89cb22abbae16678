#include "models/sphere_wall_impact.h"

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <numbers>

#include "contact/damping/viscous_dampers.h"
#include "contact/restitution_calibration.h"
#include "core/checks.h"
#include "exact/critical_time_step.h"

namespace impactlab {

namespace {
constexpr int kMaxLawHistory = 16;
const Eigen::Vector3d kNormal = Eigen::Vector3d::UnitZ();

double ShearModulus(double E, double nu) { return E / (2.0 * (1.0 + nu)); }
}  // namespace

void SphereWallImpactParameters::Validate() const {
  RequirePositive("radius", radius);
  RequirePositive("density", density);
  RequirePositive("E_sphere", E_sphere);
  RequireInRightOpen("nu_sphere", nu_sphere, 0.0, 0.5);  // 0 ≤ ν < 0.5 (docs/reliability.md)
  if (!rigid_wall) {
    RequirePositive("E_wall", E_wall);
    RequireInRightOpen("nu_wall", nu_wall, 0.0, 0.5);  // 0 ≤ ν < 0.5 (docs/reliability.md)
  }
  if (!(std::isfinite(theta_deg) && theta_deg >= 0.0 && theta_deg < 90.0))
    throw InvalidParameter("theta_deg", theta_deg, "[0, 90) (angle from the wall normal)");
  RequirePositive("speed", speed);
  RequireFinite("omega0", omega0);
  RequireFinite("omega0_x", omega0_x);
  RequireFinite("omega0_z", omega0_z);
  RequireInLeftOpen("e_n", e_n, 0.0, 1.0);
  RequireNonNegative("initial_gap", initial_gap);
}

double SphereWallImpactParameters::mass() const { return density * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius; }
double SphereWallImpactParameters::inertia() const { return 0.4 * mass() * radius * radius; }
double SphereWallImpactParameters::effective_modulus() const {
  double c = (1.0 - nu_sphere * nu_sphere) / E_sphere;
  if (!rigid_wall) c += (1.0 - nu_wall * nu_wall) / E_wall;
  return 1.0 / c;
}
double SphereWallImpactParameters::effective_shear_modulus() const {
  double c = (2.0 - nu_sphere) / ShearModulus(E_sphere, nu_sphere);
  if (!rigid_wall) c += (2.0 - nu_wall) / ShearModulus(E_wall, nu_wall);
  return 1.0 / c;
}
double SphereWallImpactParameters::hertz_coefficient() const {
  return 4.0 / 3.0 * effective_modulus() * std::sqrt(radius);
}
double SphereWallImpactParameters::normal_speed() const { return speed * std::cos(theta_deg * std::numbers::pi / 180.0); }
double SphereWallImpactParameters::tangential_speed() const {
  return speed * std::sin(theta_deg * std::numbers::pi / 180.0);
}

SphereWallImpact::SphereWallImpact(SphereWallImpactParameters parameters, std::shared_ptr<const TangentialLaw> law)
    : SphereWallImpact(parameters, HertzTsujiContactLaw((parameters.Validate(), parameters.hertz_coefficient()), parameters.e_n,
                                                      parameters.mass(), std::move(law))) {}

SphereWallImpact::SphereWallImpact(SphereWallImpactParameters parameters, ContactLaw contact)
    : p_(parameters),
      law_(RequireTangentialLaw(contact, kMaxLawHistory)),
      contact_(std::make_shared<ContactLaw>(std::move(contact))),
      damped_(contact_->damped()) {
  p_.Validate();
  mass_ = p_.mass();
  inertia_ = p_.inertia();
  e0_ = TotalEnergy(InitialState());
}

MechanicalState SphereWallImpact::InitialState() const {
  MechanicalState s;
  s.q = Eigen::VectorXd::Zero(6);
  s.v = Eigen::VectorXd::Zero(6);
  s.q[2] = p_.radius + p_.initial_gap;
  s.v[0] = p_.tangential_speed();
  s.v[2] = -p_.normal_speed();
  s.v[3] = p_.omega0_x;
  s.v[4] = p_.omega0;
  s.v[5] = p_.omega0_z;
  s.z = Eigen::VectorXd::Zero(kLaw + law_->history_size());
  s.z[kDeltaNPrev] = -p_.initial_gap;
  return s;
}

Eigen::Vector3d SphereWallImpact::SurfaceDisplacement(const Eigen::VectorXd& q) const {
  const Eigen::Vector3d x = q.head<3>();
  const Eigen::Vector3d phi = q.segment<3>(3);
  const Eigen::Vector3d s = x - p_.radius * phi.cross(kNormal);
  return s - s.dot(kNormal) * kNormal;
}

Eigen::Vector3d SphereWallImpact::SlipVelocity(const MechanicalState& st) const {
  const Eigen::Vector3d v = st.v.head<3>();
  const Eigen::Vector3d w = st.v.segment<3>(3);
  const Eigen::Vector3d vc = v + w.cross(-p_.radius * kNormal);
  return vc - vc.dot(kNormal) * kNormal;
}

SphereWallContact SphereWallImpact::EvaluateContact(const MechanicalState& s, std::span<double> law_out) const {
  SphereWallContact c;
  c.delta_n = p_.radius - s.q[2];
  c.delta_n_dot = -s.v[2];
  if (!(c.delta_n > 0.0)) return c;
  c.active = true;
  c.normal_force_elastic = contact_->elastic().Force(c.delta_n);
  c.normal_force = c.normal_force_elastic + contact_->damping().Coefficient(c.delta_n) * c.delta_n_dot;
  TangentialKinematics& k = c.kinematics;
  k.normal = kNormal;
  k.delta_n = c.delta_n;
  k.normal_force = c.normal_force_elastic;
  const double delta_prev = s.z[kDeltaNPrev];
  const Eigen::Vector3d ds = SurfaceDisplacement(s.q) - s.z.segment<3>(kSPrev);
  const auto nh = static_cast<size_t>(law_->history_size());
  c.tangential = EvaluateTangentialStep(*law_, k, ds, delta_prev, s.z[kFnPrev],
                                        std::span<const double>(s.z.data() + kLaw, nh), law_out.subspan(0, nh));
  return c;
}

void SphereWallImpact::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  std::array<double, kMaxLawHistory> scratch{};
  const SphereWallContact c = EvaluateContact(s, scratch);
  v_dot.setZero();
  if (!c.active) return;
  const Eigen::Vector3d force = c.normal_force * kNormal + c.tangential.force;
  const Eigen::Vector3d torque = (-p_.radius * kNormal).cross(c.tangential.force);
  v_dot.head<3>() = force / mass_;
  v_dot.segment<3>(3) = torque / inertia_;
}

Eigen::VectorXd SphereWallImpact::DiscreteMassDiagonal() const {
  Eigen::VectorXd m(6);
  m << mass_, mass_, mass_, inertia_, inertia_, inertia_;
  return m;
}

void SphereWallImpact::EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                            DiscreteGradientForm form, DiscreteContactStep& out) const {
  Eigen::VectorXd& z = out.z_next;
  z = before.z;
  const int nh = law_->history_size();
  std::span<const double> law_prev(before.z.data() + kLaw, static_cast<size_t>(nh));
  std::span<double> law_next(z.data() + kLaw, static_cast<size_t>(nh));
  const double delta0 = p_.radius - before.q[2];
  const Eigen::Vector3d s1 = SurfaceDisplacement(q1);
  ContactKinematics k;
  k.overlap = p_.radius - q1[2];
  k.normal = kNormal;
  k.tangential_increment = s1 - before.z.segment<3>(kSPrev);
  k.overlap_prev = before.z[kDeltaNPrev];
  k.normal_force_prev = before.z[kFnPrev];
  const DiscreteContactResponse c = contact_->EvaluateDiscrete(delta0, k, h, form, law_prev, law_next);
  // Generalized force: s_n along ∇̄δ = −e_z (the sphere is pushed along +n), f̄_t at the contact point.
  const Eigen::Vector3d force = c.normal_force * kNormal + c.tangential_force;
  const Eigen::Vector3d torque = (-p_.radius * kNormal).cross(c.tangential_force);
  out.force.resize(6);
  out.force.head<3>() = -force;
  out.force.segment<3>(3) = -torque;
  out.scale = std::abs(c.normal_force) + (1.0 + p_.radius) * c.tangential_force.norm();
  out.damping_work = c.damping_work;
  out.dissipated = c.damping_work;  // friction and generated work are booked in z
  out.friction_work = 0.0;
  out.generated_work = 0.0;
  if (k.overlap > 0.0) {
    if (!(before.z[kDeltaNPrev] > 0.0)) z.segment<3>(kSStart) = s1 - c.tangential_increment;
    out.friction_work = c.tangential.friction_work;
    out.generated_work = c.tangential.generated_work;
    z[kFnPrev] = c.elastic_normal_force;
  } else {
    // Separation: the spring's energy is released (→ 0 as δ_n → 0; booked as friction work).
    if (before.z[kDeltaNPrev] > 0.0) out.friction_work = law_->StoredEnergy(law_prev, before.z[kDeltaNPrev]);
    for (int i = 0; i < nh; ++i) z[kLaw + i] = 0.0;
    z[kFnPrev] = 0.0;
  }
  z[kFrictionWork] += out.friction_work;
  z[kGeneratedWork] += out.generated_work;
  z.segment<3>(kSPrev) = s1;
  z[kDeltaNPrev] = k.overlap;
}

void SphereWallImpact::UpdateHistory(const MechanicalState& before, MechanicalState& after) const {
  Eigen::VectorXd z = before.z;

  const int nh = law_->history_size();
  std::span<double> law_next(z.data() + kLaw, static_cast<size_t>(nh));
  // Evaluate at the new positions with the committed history of `before` (never after.z: the update must be
  // a pure function of (before, after.q)).
  MechanicalState trial = before;
  trial.q = after.q;
  const SphereWallContact c = EvaluateContact(trial, law_next);  // writes the law's new history
  const Eigen::Vector3d s_now = SurfaceDisplacement(after.q);
  if (c.active) {
    if (!(before.z[kDeltaNPrev] > 0.0)) z.segment<3>(kSStart) = s_now - c.kinematics.displacement_increment;
    z[kFrictionWork] += c.tangential.friction_work;
    z[kGeneratedWork] += c.tangential.generated_work;
    z[kFnPrev] = c.normal_force_elastic;
  } else {
    if (before.z[kDeltaNPrev] > 0.0) {
      // Separation: whatever the spring still stores is released (→ 0 as δ_n → 0; counted as friction work).
      std::span<const double> z_prev(before.z.data() + kLaw, static_cast<size_t>(nh));
      z[kFrictionWork] += law_->StoredEnergy(z_prev, before.z[kDeltaNPrev]);
    }
    for (int i = 0; i < nh; ++i) z[kLaw + i] = 0.0;
    z[kFnPrev] = 0.0;
  }
  z.segment<3>(kSPrev) = s_now;
  z[kDeltaNPrev] = c.delta_n;
  after.z = z;
}

double SphereWallImpact::TranslationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * mass_ * s.v.head<3>().squaredNorm();
}
double SphereWallImpact::RotationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * inertia_ * s.v.segment<3>(3).squaredNorm();
}
double SphereWallImpact::KineticEnergy(const MechanicalState& s) const {
  return TranslationalKineticEnergy(s) + RotationalKineticEnergy(s);
}
double SphereWallImpact::NormalElasticEnergy(const MechanicalState& s) const {
  return contact_->elastic().Potential(p_.radius - s.q[2]);
}
double SphereWallImpact::TangentialElasticEnergy(const MechanicalState& s) const {
  const double delta = p_.radius - s.q[2];
  if (!(delta > 0.0)) return 0.0;
  std::span<const double> z(s.z.data() + kLaw, static_cast<size_t>(law_->history_size()));
  return law_->StoredEnergy(z, delta);
}
double SphereWallImpact::PotentialEnergy(const MechanicalState& s) const {
  return NormalElasticEnergy(s) + TangentialElasticEnergy(s);
}
EnergyTerms SphereWallImpact::EnergyBooks(const MechanicalState& s) const {
  EnergyTerms e;
  e.kinetic = KineticEnergy(s);
  e.stored = {{"normal_elastic", NormalElasticEnergy(s)}, {"tangential_elastic", TangentialElasticEnergy(s)}};
  e.damping_work = s.dissipated;
  e.friction_work = s.z[kFrictionWork];
  e.generated_work = s.z[kGeneratedWork];
  return e;
}

double SphereWallImpact::DissipationPower(const MechanicalState& s) const {
  const double delta = p_.radius - s.q[2];
  if (!damped_ || !(delta > 0.0)) return 0.0;
  return contact_->damping().Coefficient(delta) * s.v[2] * s.v[2];
}
double SphereWallImpact::BalanceResidual(const MechanicalState& s) const {
  const double scale = std::abs(e0_) > 0.0 ? std::abs(e0_) : 1.0;
  return (TotalEnergy(s) + TotalDissipated(s) - e0_) / scale;
}

void SphereWallImpact::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                       std::span<double> overlap_rate) const {
  overlap[0] = p_.radius - s.q[2];
  overlap_rate[0] = -s.v[2];
}

std::vector<std::string> SphereWallImpact::ObservableNames() const {
  return {"delta_n_m",          "normal_force_N",       "Ft_x_N",         "Ft_y_N",
          "delta_t_x_m",        "v_s_x_m_s",            "at_coulomb_cap",
          "kinetic_trans_J",    "kinetic_rot_J",        "normal_elastic_J", "tangential_elastic_J",
          "normal_damping_work_J", "friction_work_J",   "generated_work_J", "residual_J"};
}

void SphereWallImpact::Observe(const MechanicalState& s, std::vector<double>& values) const {
  std::array<double, kMaxLawHistory> scratch{};
  const SphereWallContact c = EvaluateContact(s, scratch);
  const Eigen::Vector3d vs = SlipVelocity(s);
  // δ_t here is the total tangential displacement of the contact point since first touch (the abscissa of
  // Seed002 Figs. 2, 3, 6); "at_coulomb_cap" is 1 when |F_t| is at μ F_n (gross slip at this state).
  const double delta_t_x = c.active ? SurfaceDisplacement(s.q)[0] - s.z[kSStart] : 0.0;
  const double cap = law_->friction_coefficient() * c.normal_force_elastic;
  const bool at_cap = c.active && cap > 0.0 && c.tangential.force.norm() >= (1.0 - 1e-9) * cap;
  values = {std::max(c.delta_n, 0.0),
            c.normal_force,
            c.tangential.force[0],
            c.tangential.force[1],
            delta_t_x,
            vs[0],
            at_cap ? 1.0 : 0.0,
            TranslationalKineticEnergy(s),
            RotationalKineticEnergy(s),
            NormalElasticEnergy(s),
            TangentialElasticEnergy(s),
            s.dissipated,
            FrictionWork(s),
            GeneratedWork(s),
            TotalEnergy(s) + TotalDissipated(s) - e0_};
}

}  // namespace impactlab

// --- guards (docs/reliability.md) ---------------------------------------------------------------------
namespace impactlab {

// Estimate: normal Hertz contact (k_H = 4/3 E* √R, mass m, speed v cos θ, Tsuji α = √5 ξ_L(e_n)) as in
// ContactOscillator::CriticalTimeStep; with friction also the tangential spring at the same peak overlap,
// k_t = 8 G* √(R δ_max) acting on 1/m + R²/I = 7/(2m): Δt_t = 2/√(k_t · 7/(2m)). The smaller one is returned.
std::optional<double> SphereWallImpact::CriticalTimeStep(const MechanicalState& s) const {
  (void)s;
  const double m = p_.mass(), vn = p_.normal_speed();
  if (!(vn > 0.0)) return std::nullopt;
  const double w = law_->friction_coefficient() > 0.0 ? 1.0 / m + p_.radius * p_.radius / p_.inertia() : 0.0;
  const NormalContactLaw& elastic = contact_->elastic();
  if (elastic.exponent() != 1.5) return std::nullopt;  // the estimate is Hertz's (F = k δ^1.5)
  return HertzMindlinCriticalTimeStep(m, elastic.coefficient(), vn, p_.e_n, p_.effective_shear_modulus(), p_.radius, w);
}

std::optional<double> SphereWallImpact::ContactSize(int contact) const {
  (void)contact;
  return p_.radius;
}

}  // namespace impactlab
