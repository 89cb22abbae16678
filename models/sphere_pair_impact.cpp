#include "models/sphere_pair_impact.h"

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

double ShearModulus(double E, double nu) { return E / (2.0 * (1.0 + nu)); }
double SphereMass(double rho, double R) { return rho * 4.0 / 3.0 * std::numbers::pi * R * R * R; }
Eigen::Vector3d Tangential(const Eigen::Vector3d& a, const Eigen::Vector3d& n) { return a - a.dot(n) * n; }
}  // namespace

void SpherePairImpactParameters::Validate() const {
  RequirePositive("radius1", radius1);
  RequirePositive("radius2", radius2);
  RequirePositive("density1", density1);
  RequirePositive("density2", density2);
  RequirePositive("E1", E1);
  RequirePositive("E2", E2);
  RequireInRightOpen("nu1", nu1, 0.0, 0.5);  // 0 ≤ ν < 0.5 (docs/reliability.md)
  RequireInRightOpen("nu2", nu2, 0.0, 0.5);  // 0 ≤ ν < 0.5 (docs/reliability.md)
  RequireFinite("v1_n", v1_n);
  RequireFinite("v2_n", v2_n);
  RequireFinite("v1_t", v1_t);
  RequireFinite("v2_t", v2_t);
  if (!(v1_n + v2_n > 0.0))
    throw InvalidParameter("v1_n + v2_n", v1_n + v2_n, "> 0 (the spheres must approach each other)");
  for (int i = 0; i < 3; ++i) {
    RequireFinite("omega1", omega1[i]);
    RequireFinite("omega2", omega2[i]);
  }
  RequireInLeftOpen("e_n", e_n, 0.0, 1.0);
  RequireNonNegative("initial_gap", initial_gap);
}

double SpherePairImpactParameters::mass1() const { return SphereMass(density1, radius1); }
double SpherePairImpactParameters::mass2() const { return SphereMass(density2, radius2); }
double SpherePairImpactParameters::inertia1() const { return 0.4 * mass1() * radius1 * radius1; }
double SpherePairImpactParameters::inertia2() const { return 0.4 * mass2() * radius2 * radius2; }
double SpherePairImpactParameters::reduced_mass() const { return mass1() * mass2() / (mass1() + mass2()); }
double SpherePairImpactParameters::effective_radius() const { return radius1 * radius2 / (radius1 + radius2); }
double SpherePairImpactParameters::effective_modulus() const {
  return 1.0 / ((1.0 - nu1 * nu1) / E1 + (1.0 - nu2 * nu2) / E2);
}
double SpherePairImpactParameters::effective_shear_modulus() const {
  return 1.0 / ((2.0 - nu1) / ShearModulus(E1, nu1) + (2.0 - nu2) / ShearModulus(E2, nu2));
}
double SpherePairImpactParameters::hertz_coefficient() const {
  return 4.0 / 3.0 * effective_modulus() * std::sqrt(effective_radius());
}
double SpherePairImpactParameters::approach_speed() const { return v1_n + v2_n; }

SpherePairImpact::SpherePairImpact(SpherePairImpactParameters parameters, std::shared_ptr<const TangentialLaw> law)
    : SpherePairImpact(parameters, HertzTsujiContactLaw((parameters.Validate(), parameters.hertz_coefficient()), parameters.e_n,
                                                      parameters.reduced_mass(), std::move(law))) {}

SpherePairImpact::SpherePairImpact(SpherePairImpactParameters parameters, ContactLaw contact)
    : p_(parameters),
      law_(RequireTangentialLaw(contact, kMaxLawHistory)),
      contact_(std::make_shared<ContactLaw>(std::move(contact))),
      damped_(contact_->damped()) {
  p_.Validate();
  m1_ = p_.mass1();
  m2_ = p_.mass2();
  i1_ = p_.inertia1();
  i2_ = p_.inertia2();
  e0_ = TotalEnergy(InitialState());
}

MechanicalState SpherePairImpact::InitialState() const {
  MechanicalState s;
  s.q = Eigen::VectorXd::Zero(12);
  s.v = Eigen::VectorXd::Zero(12);
  // The first-touch point is the origin: x₁ = −(R₁ + g/2) e_z, x₂ = (R₂ + g/2) e_z.
  s.q[kX1 + 2] = -(p_.radius1 + 0.5 * p_.initial_gap);
  s.q[kX2 + 2] = p_.radius2 + 0.5 * p_.initial_gap;
  s.v[kX1 + 0] = p_.v1_t;
  s.v[kX1 + 2] = p_.v1_n;
  s.v.segment<3>(kPhi1) = p_.omega1;
  s.v[kX2 + 0] = p_.v2_t;
  s.v[kX2 + 2] = -p_.v2_n;
  s.v.segment<3>(kPhi2) = p_.omega2;
  s.z = Eigen::VectorXd::Zero(kLaw + law_->history_size());
  s.z.segment<3>(kRPrev) = s.q.segment<3>(kX2) - s.q.segment<3>(kX1);
  s.z[kDeltaNPrev] = -p_.initial_gap;
  return s;
}

Eigen::Vector3d SpherePairImpact::Normal(const Eigen::VectorXd& q) const {
  const Eigen::Vector3d r = q.segment<3>(kX2) - q.segment<3>(kX1);
  const double d = r.norm();
  if (!(d > 0.0)) throw InvalidParameter("sphere centre distance", d, "> 0 (coincident centres)");
  return r / d;
}

double SpherePairImpact::Overlap(const Eigen::VectorXd& q) const {
  return p_.radius1 + p_.radius2 - (q.segment<3>(kX2) - q.segment<3>(kX1)).norm();
}

Eigen::Vector3d SpherePairImpact::SlipVelocity(const MechanicalState& s) const {
  const Eigen::Vector3d n = Normal(s.q);
  const double half = 0.5 * std::max(Overlap(s.q), 0.0);
  const double a1 = p_.radius1 - half, a2 = p_.radius2 - half;
  const Eigen::Vector3d dv = s.v.segment<3>(kX2) - s.v.segment<3>(kX1);
  const Eigen::Vector3d spin = a1 * s.v.segment<3>(kPhi1) + a2 * s.v.segment<3>(kPhi2);
  return Tangential(dv - spin.cross(n), n);
}

SpherePairContact SpherePairImpact::EvaluateContact(const MechanicalState& s, std::span<double> law_out) const {
  SpherePairContact c;
  const Eigen::Vector3d r = s.q.segment<3>(kX2) - s.q.segment<3>(kX1);
  c.normal = Normal(s.q);
  c.delta_n = p_.radius1 + p_.radius2 - r.norm();
  c.delta_n_dot = -(s.v.segment<3>(kX2) - s.v.segment<3>(kX1)).dot(c.normal);
  if (!(c.delta_n > 0.0)) return c;
  c.active = true;
  c.arm1 = p_.radius1 - 0.5 * c.delta_n;
  c.arm2 = p_.radius2 - 0.5 * c.delta_n;
  c.normal_force_elastic = contact_->elastic().Force(c.delta_n);
  c.normal_force = c.normal_force_elastic + contact_->damping().Coefficient(c.delta_n) * c.delta_n_dot;
  TangentialKinematics& k = c.kinematics;
  k.normal = c.normal;
  k.delta_n = c.delta_n;
  k.normal_force = c.normal_force_elastic;
  const double delta_prev = s.z[kDeltaNPrev];
  const Eigen::Vector3d r_prev = s.z.segment<3>(kRPrev);
  Eigen::Vector3d n_mid = c.normal + r_prev / r_prev.norm();
  n_mid /= n_mid.norm();
  const double quarter = 0.25 * (c.delta_n + std::max(delta_prev, 0.0));
  const Eigen::Vector3d dphi1 = s.q.segment<3>(kPhi1) - s.z.segment<3>(kPhi1Prev);
  const Eigen::Vector3d dphi2 = s.q.segment<3>(kPhi2) - s.z.segment<3>(kPhi2Prev);
  const Eigen::Vector3d spin = (p_.radius1 - quarter) * dphi1 + (p_.radius2 - quarter) * dphi2;
  const Eigen::Vector3d ds = Tangential((r - r_prev) - spin.cross(n_mid), c.normal);
  const auto nh = static_cast<size_t>(law_->history_size());
  c.tangential = EvaluateTangentialStep(*law_, k, ds, delta_prev, s.z[kFnPrev],
                                        std::span<const double>(s.z.data() + kLaw, nh), law_out.subspan(0, nh));
  return c;
}

void SpherePairImpact::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  std::array<double, kMaxLawHistory> scratch{};
  const SpherePairContact c = EvaluateContact(s, scratch);
  v_dot.setZero();
  if (!c.active) return;
  const Eigen::Vector3d& n = c.normal;
  const Eigen::Vector3d force2 = c.normal_force * n + c.tangential.force;  // on sphere 2
  const Eigen::Vector3d torque2 = (-c.arm2 * n).cross(c.tangential.force);
  const Eigen::Vector3d torque1 = (c.arm1 * n).cross(-c.tangential.force);
  v_dot.segment<3>(kX1) = -force2 / m1_;
  v_dot.segment<3>(kPhi1) = torque1 / i1_;
  v_dot.segment<3>(kX2) = force2 / m2_;
  v_dot.segment<3>(kPhi2) = torque2 / i2_;
}

Eigen::VectorXd SpherePairImpact::DiscreteMassDiagonal() const {
  Eigen::VectorXd m(12);
  m << m1_, m1_, m1_, i1_, i1_, i1_, m2_, m2_, m2_, i2_, i2_, i2_;
  return m;
}

void SpherePairImpact::EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                            DiscreteGradientForm form, DiscreteContactStep& out) const {
  Eigen::VectorXd& z = out.z_next;
  z = before.z;
  const int nh = law_->history_size();
  std::span<const double> law_prev(before.z.data() + kLaw, static_cast<size_t>(nh));
  std::span<double> law_next(z.data() + kLaw, static_cast<size_t>(nh));
  const double r_sum = p_.radius1 + p_.radius2;
  const Eigen::Vector3d r0 = before.q.segment<3>(kX2) - before.q.segment<3>(kX1);
  const Eigen::Vector3d r1 = q1.segment<3>(kX2) - q1.segment<3>(kX1);
  const Eigen::Vector3d rm = 0.5 * (r0 + r1), dr = r1 - r0;
  const double d0 = r0.norm(), d1 = r1.norm(), dm = rm.norm(), r_bar = 0.5 * (d0 + d1);
  if (!(dm > 0.0)) throw InvalidParameter("sphere centre distance", dm, "> 0 (coincident centres)");
  const Eigen::Vector3d nm = rm / dm;
  const Eigen::Matrix3d pt = Eigen::Matrix3d::Identity() - nm * nm.transpose();
  const double half_overlap = 0.5 * (r_sum - dm);
  const double a1 = p_.radius1 - half_overlap, a2 = p_.radius2 - half_overlap;
  const Eigen::Vector3d dphi1 = q1.segment<3>(kPhi1) - before.q.segment<3>(kPhi1);
  const Eigen::Vector3d dphi2 = q1.segment<3>(kPhi2) - before.q.segment<3>(kPhi2);
  ContactKinematics k;
  k.overlap = r_sum - d1;
  k.normal = nm;
  k.tangential_increment = pt * (dr - (a1 * dphi1 + a2 * dphi2).cross(nm));
  k.overlap_prev = before.z[kDeltaNPrev];
  k.normal_force_prev = before.z[kFnPrev];
  const double delta0 = r_sum - d0;
  const DiscreteContactResponse c = contact_->EvaluateDiscrete(delta0, k, h, form, law_prev, law_next);
  // Normal force on sphere 2 (sphere 1 gets its negative).
  Eigen::Vector3d normal2 = c.normal_force * (rm / r_bar);  // quotient forms: along −∇̄_r δ = r_m/r̄
  if (form == DiscreteGradientForm::kMidpoint) normal2 = c.normal_force * nm;
  if (form == DiscreteGradientForm::kCartesian) {
    // Gonzalez's DG of W(δ(r)) in r: ∇̄W = −W'(δ_m) n̄ + corr Δr; the damping part C(δ_m) stays along n̄.
    const NormalContactLaw& elastic = contact_->elastic();
    const double w0 = elastic.Potential(delta0), w1 = elastic.Potential(k.overlap);
    const double wm_force = elastic.Force(r_sum - dm);
    const Eigen::Vector3d grad = -wm_force * nm;
    const double dr2 = dr.squaredNorm(), num = (w1 - w0) - grad.dot(dr);
    constexpr double kEps = 2.220446049250313e-16;
    const bool use = dr2 > 0.0 && std::abs(num) > 8.0 * kEps * (std::abs(w0) + std::abs(w1) + std::abs(grad.dot(dr)));
    // The dashpot C(δ̄) Δδ/h acts along the Greenspan direction r_m/r̄ so that its work is exactly −C Δδ²/h.
    normal2 = -(grad + (use ? num / dr2 : 0.0) * dr) + c.damping_force * (rm / r_bar);
  }
  const Eigen::Vector3d force2 = normal2 + c.tangential_force;
  out.force.resize(12);
  out.force.segment<3>(kX1) = force2;
  out.force.segment<3>(kX2) = -force2;
  out.force.segment<3>(kPhi1) = a1 * nm.cross(c.tangential_force);   // −τ₁, τ₁ = −a₁ n̄ × f̄_t
  out.force.segment<3>(kPhi2) = a2 * nm.cross(c.tangential_force);   // −τ₂, τ₂ = −a₂ n̄ × f̄_t
  out.scale = force2.norm() + (1.0 + r_sum) * c.tangential_force.norm();
  out.damping_work = c.damping_work;
  out.dissipated = c.damping_work;  // friction and generated work are booked in z
  out.friction_work = 0.0;
  out.generated_work = 0.0;
  if (k.overlap > 0.0) {
    out.friction_work = c.tangential.friction_work;
    out.generated_work = c.tangential.generated_work;
    z[kFnPrev] = c.elastic_normal_force;
  } else {
    if (before.z[kDeltaNPrev] > 0.0) out.friction_work = law_->StoredEnergy(law_prev, before.z[kDeltaNPrev]);
    for (int i = 0; i < nh; ++i) z[kLaw + i] = 0.0;
    z[kFnPrev] = 0.0;
  }
  z[kFrictionWork] += out.friction_work;
  z[kGeneratedWork] += out.generated_work;
  z.segment<3>(kRPrev) = r1;
  z.segment<3>(kPhi1Prev) = q1.segment<3>(kPhi1);
  z.segment<3>(kPhi2Prev) = q1.segment<3>(kPhi2);
  z[kDeltaNPrev] = k.overlap;
}

void SpherePairImpact::UpdateHistory(const MechanicalState& before, MechanicalState& after) const {
  Eigen::VectorXd z = before.z;

  const int nh = law_->history_size();
  std::span<double> law_next(z.data() + kLaw, static_cast<size_t>(nh));
  MechanicalState trial = before;  // the update is a pure function of (before, after.q)
  trial.q = after.q;
  const SpherePairContact c = EvaluateContact(trial, law_next);
  if (c.active) {
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
  z.segment<3>(kRPrev) = after.q.segment<3>(kX2) - after.q.segment<3>(kX1);
  z.segment<3>(kPhi1Prev) = after.q.segment<3>(kPhi1);
  z.segment<3>(kPhi2Prev) = after.q.segment<3>(kPhi2);
  z[kDeltaNPrev] = c.delta_n;
  after.z = z;
}

double SpherePairImpact::TranslationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * m1_ * s.v.segment<3>(kX1).squaredNorm() + 0.5 * m2_ * s.v.segment<3>(kX2).squaredNorm();
}
double SpherePairImpact::RotationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * i1_ * s.v.segment<3>(kPhi1).squaredNorm() + 0.5 * i2_ * s.v.segment<3>(kPhi2).squaredNorm();
}
double SpherePairImpact::KineticEnergy(const MechanicalState& s) const {
  return TranslationalKineticEnergy(s) + RotationalKineticEnergy(s);
}
double SpherePairImpact::NormalElasticEnergy(const MechanicalState& s) const {
  return contact_->elastic().Potential(Overlap(s.q));
}
double SpherePairImpact::TangentialElasticEnergy(const MechanicalState& s) const {
  const double delta = Overlap(s.q);
  if (!(delta > 0.0)) return 0.0;
  std::span<const double> z(s.z.data() + kLaw, static_cast<size_t>(law_->history_size()));
  return law_->StoredEnergy(z, delta);
}
double SpherePairImpact::PotentialEnergy(const MechanicalState& s) const {
  return NormalElasticEnergy(s) + TangentialElasticEnergy(s);
}
EnergyTerms SpherePairImpact::EnergyBooks(const MechanicalState& s) const {
  EnergyTerms e;
  e.kinetic = KineticEnergy(s);
  e.stored = {{"normal_elastic", NormalElasticEnergy(s)}, {"tangential_elastic", TangentialElasticEnergy(s)}};
  e.damping_work = s.dissipated;
  e.friction_work = s.z[kFrictionWork];
  e.generated_work = s.z[kGeneratedWork];
  return e;
}

double SpherePairImpact::DissipationPower(const MechanicalState& s) const {
  const double delta = Overlap(s.q);
  if (!damped_ || !(delta > 0.0)) return 0.0;
  const double rate = (s.v.segment<3>(kX2) - s.v.segment<3>(kX1)).dot(Normal(s.q));
  return contact_->damping().Coefficient(delta) * rate * rate;
}
double SpherePairImpact::BalanceResidual(const MechanicalState& s) const {
  const double scale = std::abs(e0_) > 0.0 ? std::abs(e0_) : 1.0;
  return (TotalEnergy(s) + TotalDissipated(s) - e0_) / scale;
}

void SpherePairImpact::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                       std::span<double> overlap_rate) const {
  overlap[0] = Overlap(s.q);
  overlap_rate[0] = -(s.v.segment<3>(kX2) - s.v.segment<3>(kX1)).dot(Normal(s.q));
}

std::optional<Eigen::Vector3d> SpherePairImpact::LinearMomentum(const MechanicalState& s) const {
  return Eigen::Vector3d(m1_ * s.v.segment<3>(kX1) + m2_ * s.v.segment<3>(kX2));
}
std::optional<Eigen::Vector3d> SpherePairImpact::AngularMomentum(const MechanicalState& s) const {
  const Eigen::Vector3d x1 = s.q.segment<3>(kX1), x2 = s.q.segment<3>(kX2);
  return Eigen::Vector3d(m1_ * x1.cross(s.v.segment<3>(kX1)) + m2_ * x2.cross(s.v.segment<3>(kX2)) +
                         i1_ * s.v.segment<3>(kPhi1) + i2_ * s.v.segment<3>(kPhi2));
}
std::optional<double> SpherePairImpact::LinearMomentumScale(const MechanicalState& s) const {
  return m1_ * s.v.segment<3>(kX1).norm() + m2_ * s.v.segment<3>(kX2).norm();
}
std::optional<double> SpherePairImpact::AngularMomentumScale(const MechanicalState& s) const {
  const Eigen::Vector3d x1 = s.q.segment<3>(kX1), x2 = s.q.segment<3>(kX2);
  const Eigen::Vector3d xg = (m1_ * x1 + m2_ * x2) / (m1_ + m2_);
  return m1_ * (x1 - xg).norm() * s.v.segment<3>(kX1).norm() + m2_ * (x2 - xg).norm() * s.v.segment<3>(kX2).norm() +
         i1_ * s.v.segment<3>(kPhi1).norm() + i2_ * s.v.segment<3>(kPhi2).norm();
}

std::vector<std::string> SpherePairImpact::ObservableNames() const {
  return {"delta_n_m",       "normal_force_N",   "Ft_x_N",           "Ft_y_N",
          "v_s_x_m_s",       "at_coulomb_cap",   "omega1_y_rad_s",   "omega2_y_rad_s",
          "kinetic_trans_J", "kinetic_rot_J",    "normal_elastic_J", "tangential_elastic_J",
          "normal_damping_work_J", "friction_work_J", "generated_work_J", "residual_J"};
}

void SpherePairImpact::Observe(const MechanicalState& s, std::vector<double>& values) const {
  std::array<double, kMaxLawHistory> scratch{};
  const SpherePairContact c = EvaluateContact(s, scratch);
  const Eigen::Vector3d vs = SlipVelocity(s);
  const double cap = law_->friction_coefficient() * c.normal_force_elastic;
  const bool at_cap = c.active && cap > 0.0 && c.tangential.force.norm() >= (1.0 - 1e-9) * cap;
  values = {std::max(c.delta_n, 0.0),
            c.normal_force,
            c.tangential.force[0],
            c.tangential.force[1],
            vs[0],
            at_cap ? 1.0 : 0.0,
            s.v[kPhi1 + 1],
            s.v[kPhi2 + 1],
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

// As SphereWallImpact::CriticalTimeStep with the reduced mass m*, R* and the approach speed; the tangential
// spring acts on 1/m₁ + 1/m₂ + R₁²/I₁ + R₂²/I₂.
std::optional<double> SpherePairImpact::CriticalTimeStep(const MechanicalState& s) const {
  (void)s;
  const double vn = p_.approach_speed();
  if (!(vn > 0.0)) return std::nullopt;
  const double w = law_->friction_coefficient() > 0.0
                       ? 1.0 / p_.mass1() + 1.0 / p_.mass2() + p_.radius1 * p_.radius1 / p_.inertia1() +
                             p_.radius2 * p_.radius2 / p_.inertia2()
                       : 0.0;
  const NormalContactLaw& elastic = contact_->elastic();
  if (elastic.exponent() != 1.5) return std::nullopt;  // the estimate is Hertz's (F = k δ^1.5)
  return HertzMindlinCriticalTimeStep(p_.reduced_mass(), elastic.coefficient(), vn, p_.e_n,
                                      p_.effective_shear_modulus(), p_.effective_radius(), w);
}

std::optional<double> SpherePairImpact::ContactSize(int contact) const {
  (void)contact;
  return std::min(p_.radius1, p_.radius2);
}

}  // namespace impactlab
