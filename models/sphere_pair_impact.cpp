#include "models/sphere_pair_impact.h"

#include <Eigen/Geometry>
#include <cmath>

#include "core/checks.h"
#include "models/sphere_frictional_contact.h"

namespace impactlab {

namespace {
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
double SpherePairImpactParameters::inertia1() const { return SphereInertia(mass1(), radius1); }
double SpherePairImpactParameters::inertia2() const { return SphereInertia(mass2(), radius2); }
double SpherePairImpactParameters::reduced_mass() const { return mass1() * mass2() / (mass1() + mass2()); }
double SpherePairImpactParameters::effective_radius() const { return radius1 * radius2 / (radius1 + radius2); }
double SpherePairImpactParameters::effective_modulus() const {
  return 1.0 / (NormalCompliance(E1, nu1) + NormalCompliance(E2, nu2));
}
double SpherePairImpactParameters::effective_shear_modulus() const {
  return 1.0 / (ShearCompliance(E1, nu1) + ShearCompliance(E2, nu2));
}
double SpherePairImpactParameters::hertz_coefficient() const {
  return 4.0 / 3.0 * effective_modulus() * std::sqrt(effective_radius());
}
double SpherePairImpactParameters::approach_speed() const { return v1_n + v2_n; }

SpherePairImpact::SpherePairImpact(SpherePairImpactParameters parameters, std::shared_ptr<const TangentialLaw> law)
    : SpherePairImpact(parameters, HertzTsujiContactLaw((parameters.Validate(), parameters.hertz_coefficient()), parameters.e_n,
                                                      parameters.reduced_mass(), std::move(law))) {}

SpherePairImpact::SpherePairImpact(SpherePairImpactParameters parameters, ContactLaw contact)
    : SphereContactModel(std::move(contact), kBooks, kLaw),
      p_(parameters), m1_(p_.mass1()), m2_(p_.mass2()), i1_(p_.inertia1()), i2_(p_.inertia2()) {
  p_.Validate();
  SetInitialEnergy(InitialState());
}

MechanicalState SpherePairImpact::InitialState() const {
  MechanicalState s = ZeroState(12, p_.initial_gap);
  // The first-touch point is the origin: x₁ = −(R₁ + g/2) e_z, x₂ = (R₂ + g/2) e_z.
  s.q[kX1 + 2] = -(p_.radius1 + 0.5 * p_.initial_gap);
  s.q[kX2 + 2] = p_.radius2 + 0.5 * p_.initial_gap;
  s.v[kX1 + 0] = p_.v1_t;
  s.v[kX1 + 2] = p_.v1_n;
  s.v.segment<3>(kPhi1) = p_.omega1;
  s.v[kX2 + 0] = p_.v2_t;
  s.v[kX2 + 2] = -p_.v2_n;
  s.v.segment<3>(kPhi2) = p_.omega2;
  s.z.segment<3>(kRPrev) = s.q.segment<3>(kX2) - s.q.segment<3>(kX1);
  return s;
}

Eigen::Vector3d SpherePairImpact::Normal(const Eigen::VectorXd& q) const {
  const Eigen::Vector3d r = q.segment<3>(kX2) - q.segment<3>(kX1);
  const double d = r.norm();
  if (!(d > 0.0)) throw InvalidParameter("sphere centre distance", d, "> 0 (coincident centres)");
  return r / d;
}

void SpherePairImpact::DeclareFrictionalContact(int contact, const Eigen::VectorXd& q, double& gap,
                                                Eigen::MatrixXd& jacobian) const {
  (void)contact;
  const Eigen::Vector3d r = q.segment<3>(kX2) - q.segment<3>(kX1);
  const Eigen::Vector3d n = Normal(q);
  gap = r.norm() - p_.radius1 - p_.radius2;
  jacobian = Eigen::MatrixXd::Zero(3, 12);
  AddSphereContactColumns(n, p_.radius1, kX1, -1.0, jacobian);
  AddSphereContactColumns(n, p_.radius2, kX2, 1.0, jacobian);
}

Eigen::VectorXd SpherePairImpact::NormalJacobianRate(int contact, const Eigen::VectorXd& q,
                                                     const Eigen::VectorXd& v) const {
  (void)contact;
  const Eigen::Vector3d n_dot = NormalRate(q.segment<3>(kX2) - q.segment<3>(kX1), v.segment<3>(kX2) - v.segment<3>(kX1));
  Eigen::VectorXd rate = Eigen::VectorXd::Zero(12);
  rate.segment<3>(kX1) = -n_dot;
  rate.segment<3>(kX2) = n_dot;
  return rate;
}

double SpherePairImpact::Overlap(const Eigen::VectorXd& q) const {
  return p_.radius1 + p_.radius2 - (q.segment<3>(kX2) - q.segment<3>(kX1)).norm();
}
double SpherePairImpact::OverlapRate(const MechanicalState& s) const {
  return -(s.v.segment<3>(kX2) - s.v.segment<3>(kX1)).dot(Normal(s.q));
}

Eigen::Vector3d SpherePairImpact::SlipVelocity(const MechanicalState& s) const {
  const Eigen::Vector3d n = Normal(s.q);
  const double half = 0.5 * std::max(Overlap(s.q), 0.0);
  const double a1 = p_.radius1 - half, a2 = p_.radius2 - half;
  const Eigen::Vector3d dv = s.v.segment<3>(kX2) - s.v.segment<3>(kX1);
  const Eigen::Vector3d spin = a1 * s.v.segment<3>(kPhi1) + a2 * s.v.segment<3>(kPhi2);
  return Tangential(dv - spin.cross(n), n);
}

SpherePairContact SpherePairImpact::EvaluateContact(const MechanicalState& s, std::span<double> law_out,
                                                    const TangentialStartRates* start) const {
  SpherePairContact c;
  const Eigen::Vector3d r = s.q.segment<3>(kX2) - s.q.segment<3>(kX1);
  c.normal = Normal(s.q);
  c.delta_n = p_.radius1 + p_.radius2 - r.norm();
  c.delta_n_dot = -(s.v.segment<3>(kX2) - s.v.segment<3>(kX1)).dot(c.normal);
  if (!(c.delta_n > 0.0)) return c;
  c.arm1 = p_.radius1 - 0.5 * c.delta_n;
  c.arm2 = p_.radius2 - 0.5 * c.delta_n;
  const double delta_prev = s.z[kDeltaNPrev];
  const Eigen::Vector3d r_prev = s.z.segment<3>(kRPrev);
  Eigen::Vector3d n_mid = c.normal + r_prev / r_prev.norm();
  n_mid /= n_mid.norm();
  const double quarter = 0.25 * (c.delta_n + std::max(delta_prev, 0.0));
  const Eigen::Vector3d dphi1 = s.q.segment<3>(kPhi1) - s.z.segment<3>(kPhi1Prev);
  const Eigen::Vector3d dphi2 = s.q.segment<3>(kPhi2) - s.z.segment<3>(kPhi2Prev);
  const Eigen::Vector3d spin = (p_.radius1 - quarter) * dphi1 + (p_.radius2 - quarter) * dphi2;
  const Eigen::Vector3d ds = Tangential((r - r_prev) - spin.cross(n_mid), c.normal);
  // At the committed configuration (the same r and angles): Δs = 0, δ = δ⁰ and the same normal.
  const bool at_commit = r == r_prev && (dphi1.array() == 0.0).all() && (dphi2.array() == 0.0).all();
  EvaluateContactLaw(c.normal, ds, s.z, law_out, c, start, at_commit);
  return c;
}

void SpherePairImpact::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  const SpherePairContact c = EvaluateContact(s);
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
  Eigen::VectorXd m;
  WriteDiscreteMassDiagonal(m);
  return m;
}

void SpherePairImpact::WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const {
  if (m.size() != 12) m.resize(12);
  m << m1_, m1_, m1_, i1_, i1_, i1_, m2_, m2_, m2_, i2_, i2_, i2_;
}

void SpherePairImpact::EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                            DiscreteGradientForm form, DiscreteContactStep& out) const {
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
  k.start_rates = StartRates(before, SlipVelocity(before), h);  // the rate of Δs at the start
  const double delta0 = r_sum - d0;
  const DiscreteContactResponse c = EvaluateDiscreteContactLaw(before, delta0, k, h, form, out);
  // Normal force on sphere 2 (sphere 1 gets its negative).
  Eigen::Vector3d normal2 = c.normal_force * (rm / r_bar);  // quotient forms: along −∇̄_r δ = r_m/r̄
  if (form == DiscreteGradientForm::kMidpoint) normal2 = c.normal_force * nm;
  if (form == DiscreteGradientForm::kCartesian) {
    // Gonzalez's DG of W(δ(r)) in r: ∇̄W = −W'(δ_m) n̄ + corr Δr; the damping part C(δ_m) stays along n̄.
    const NormalContactLaw& elastic = contact_law().elastic();
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
  BookDiscreteStep(before.z, k.overlap, c, out);
  out.z_next.segment<3>(kRPrev) = r1;
  out.z_next.segment<3>(kPhi1Prev) = q1.segment<3>(kPhi1);
  out.z_next.segment<3>(kPhi2Prev) = q1.segment<3>(kPhi2);
}

void SpherePairImpact::UpdateHistory(const MechanicalState& before, MechanicalState& after) const {
  // Per-thread storage (the model is const and may be shared between threads): no allocation once sized.
  thread_local Eigen::VectorXd z;
  thread_local MechanicalState trial;
  z = before.z;
  trial = before;  // the update is a pure function of (before, after.q, after.t)
  trial.q = after.q;
  // The rates of `before` let the law locate a slip → stick switch inside the step (tangential_law.h).
  const TangentialStartRates start = StartRates(before, SlipVelocity(before), after.t - before.t);
  const SpherePairContact c = EvaluateContact(trial, LawHistory(z), &start);  // writes the law's new history
  BookStep(before.z, c.delta_n, c.normal_force_elastic, c.tangential, z);
  z.segment<3>(kRPrev) = after.q.segment<3>(kX2) - after.q.segment<3>(kX1);
  z.segment<3>(kPhi1Prev) = after.q.segment<3>(kPhi1);
  z.segment<3>(kPhi2Prev) = after.q.segment<3>(kPhi2);
  after.z = z;
}

double SpherePairImpact::TranslationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * m1_ * s.v.segment<3>(kX1).squaredNorm() + 0.5 * m2_ * s.v.segment<3>(kX2).squaredNorm();
}
double SpherePairImpact::RotationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * i1_ * s.v.segment<3>(kPhi1).squaredNorm() + 0.5 * i2_ * s.v.segment<3>(kPhi2).squaredNorm();
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
  std::vector<std::string> names = {"delta_n_m", "normal_force_N", "Ft_x_N",         "Ft_y_N",
                                    "v_s_x_m_s", "at_coulomb_cap", "omega1_y_rad_s", "omega2_y_rad_s"};
  for (std::string& n : LedgerObservableNames()) names.push_back(std::move(n));
  return names;
}

void SpherePairImpact::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const SpherePairContact c = EvaluateContact(s);
  const Eigen::Vector3d vs = SlipVelocity(s);
  values = {std::max(c.delta_n, 0.0),
            c.normal_force,
            c.tangential.force[0],
            c.tangential.force[1],
            vs[0],
            AtCoulombCap(c) ? 1.0 : 0.0,
            s.v[kPhi1 + 1],
            s.v[kPhi2 + 1]};
  AppendLedgerObservables(s, values);
}

}  // namespace impactlab

// --- guards (docs/reliability.md) ---------------------------------------------------------------------
namespace impactlab {

// SphereContactModel::HertzCriticalTimeStep with the reduced mass m*, R* and the approach speed; the tangential
// spring acts on 1/m₁ + 1/m₂ + R₁²/I₁ + R₂²/I₂.
std::optional<double> SpherePairImpact::CriticalTimeStep(const MechanicalState& s) const {
  (void)s;
  return HertzCriticalTimeStep(p_.reduced_mass(), p_.approach_speed(), p_.e_n, p_.effective_shear_modulus(),
                               p_.effective_radius(),
                               1.0 / p_.mass1() + 1.0 / p_.mass2() + p_.radius1 * p_.radius1 / p_.inertia1() +
                                   p_.radius2 * p_.radius2 / p_.inertia2());
}

std::optional<double> SpherePairImpact::ContactSize(int contact) const {
  (void)contact;
  return std::min(p_.radius1, p_.radius2);
}

}  // namespace impactlab
