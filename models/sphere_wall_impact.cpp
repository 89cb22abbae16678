#include "models/sphere_wall_impact.h"

#include <Eigen/Geometry>
#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "models/sphere_frictional_contact.h"

namespace impactlab {

namespace {
const Eigen::Vector3d kNormal = Eigen::Vector3d::UnitZ();
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

double SphereWallImpactParameters::mass() const { return SphereMass(density, radius); }
double SphereWallImpactParameters::inertia() const { return SphereInertia(mass(), radius); }
double SphereWallImpactParameters::effective_modulus() const {
  double c = NormalCompliance(E_sphere, nu_sphere);
  if (!rigid_wall) c += NormalCompliance(E_wall, nu_wall);
  return 1.0 / c;
}
double SphereWallImpactParameters::effective_shear_modulus() const {
  double c = ShearCompliance(E_sphere, nu_sphere);
  if (!rigid_wall) c += ShearCompliance(E_wall, nu_wall);
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
    : SphereContactModel(std::move(contact), kBooks, kLaw), p_(parameters), mass_(p_.mass()), inertia_(p_.inertia()) {
  p_.Validate();
  SetInitialEnergy(InitialState());
}

MechanicalState SphereWallImpact::InitialState() const {
  MechanicalState s = ZeroState(6, p_.initial_gap);
  s.q[2] = p_.radius + p_.initial_gap;
  s.v[0] = p_.tangential_speed();
  s.v[2] = -p_.normal_speed();
  s.v[3] = p_.omega0_x;
  s.v[4] = p_.omega0;
  s.v[5] = p_.omega0_z;
  return s;
}

double SphereWallImpact::Overlap(const Eigen::VectorXd& q) const { return p_.radius - q[2]; }
double SphereWallImpact::OverlapRate(const MechanicalState& s) const { return -s.v[2]; }

void SphereWallImpact::DeclareFrictionalContact(int contact, const Eigen::VectorXd& q, double& gap,
                                                Eigen::MatrixXd& jacobian) const {
  (void)contact;
  gap = -Overlap(q);
  jacobian = Eigen::MatrixXd::Zero(3, 6);
  AddSphereContactColumns(kNormal, p_.radius, 0, 1.0, jacobian);  // frame (e_z, e_x, e_y)
}

Eigen::VectorXd SphereWallImpact::NormalJacobianRate(int contact, const Eigen::VectorXd& q,
                                                     const Eigen::VectorXd& v) const {
  (void)contact;
  (void)v;
  return Eigen::VectorXd::Zero(q.size());
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

SphereContact SphereWallImpact::EvaluateContact(const MechanicalState& s, std::span<double> law_out,
                                                const TangentialStartRates* start) const {
  SphereContact c;
  c.delta_n = Overlap(s.q);
  c.delta_n_dot = OverlapRate(s);
  if (!(c.delta_n > 0.0)) return c;
  const Eigen::Vector3d ds = SurfaceDisplacement(s.q) - s.z.segment<3>(kSPrev);
  // At the committed configuration: Δs = 0 and δ = δ⁰ (the wall's normal is fixed).
  const bool at_commit = (ds.array() == 0.0).all() && c.delta_n == s.z[kDeltaNPrev];
  EvaluateContactLaw(kNormal, ds, s.z, law_out, c, start, at_commit);
  return c;
}

void SphereWallImpact::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  const SphereContact c = EvaluateContact(s);
  v_dot.setZero();
  if (!c.active) return;
  const Eigen::Vector3d force = c.normal_force * kNormal + c.tangential.force;
  const Eigen::Vector3d torque = (-p_.radius * kNormal).cross(c.tangential.force);
  v_dot.head<3>() = force / mass_;
  v_dot.segment<3>(3) = torque / inertia_;
}

Eigen::VectorXd SphereWallImpact::DiscreteMassDiagonal() const {
  Eigen::VectorXd m;
  WriteDiscreteMassDiagonal(m);
  return m;
}

void SphereWallImpact::WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const {
  if (m.size() != 6) m.resize(6);
  m << mass_, mass_, mass_, inertia_, inertia_, inertia_;
}

void SphereWallImpact::EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                            DiscreteGradientForm form, DiscreteContactStep& out) const {
  const Eigen::Vector3d s1 = SurfaceDisplacement(q1);
  ContactKinematics k;
  k.overlap = Overlap(q1);
  k.normal = kNormal;
  k.tangential_increment = s1 - before.z.segment<3>(kSPrev);
  k.start_rates = StartRates(before, SlipVelocity(before), h);  // ṡ = v_s: the rate of Δs at the start
  const DiscreteContactResponse c = EvaluateDiscreteContactLaw(before, Overlap(before.q), k, h, form, out);
  // Generalized force: s_n along ∇̄δ = −e_z (the sphere is pushed along +n), f̄_t at the contact point.
  const Eigen::Vector3d force = c.normal_force * kNormal + c.tangential_force;
  const Eigen::Vector3d torque = (-p_.radius * kNormal).cross(c.tangential_force);
  out.force.resize(6);
  out.force.head<3>() = -force;
  out.force.segment<3>(3) = -torque;
  out.scale = std::abs(c.normal_force) + (1.0 + p_.radius) * c.tangential_force.norm();
  if (k.overlap > 0.0 && !(before.z[kDeltaNPrev] > 0.0)) out.z_next.segment<3>(kSStart) = s1 - c.tangential_increment;
  BookDiscreteStep(before.z, k.overlap, c, out);
  out.z_next.segment<3>(kSPrev) = s1;
}

SphereContact SphereWallImpact::ContactSinceStepStart(const MechanicalState& before, const MechanicalState& after,
                                                      Eigen::VectorXd& z) const {
  z = before.z;
  // Evaluate at the new positions with the committed history of `before` (never after.z: the update must be
  // a pure function of (before, after.q, after.t)). Per-thread storage: no allocation once sized.
  thread_local MechanicalState trial;
  trial = before;
  trial.q = after.q;
  // The rates of `before` let the law locate a slip → stick switch inside the step (tangential_law.h).
  const TangentialStartRates start = StartRates(before, SlipVelocity(before), after.t - before.t);
  return EvaluateContact(trial, LawHistory(z), &start);  // writes the law's new history into z
}

void SphereWallImpact::UpdateHistory(const MechanicalState& before, MechanicalState& after) const {
  thread_local Eigen::VectorXd z;
  const SphereContact c = ContactSinceStepStart(before, after, z);
  const Eigen::Vector3d s_now = SurfaceDisplacement(after.q);
  if (c.active && !(before.z[kDeltaNPrev] > 0.0)) z.segment<3>(kSStart) = s_now - c.kinematics.displacement_increment;
  BookStep(before.z, c.delta_n, c.normal_force_elastic, c.tangential, z);
  z.segment<3>(kSPrev) = s_now;
  after.z = z;
}

void SphereWallImpact::SwitchFunctions(const MechanicalState& step_start, const MechanicalState& s,
                                       std::span<double> g) const {
  // The evaluation of UpdateHistory(step_start, s), without the books.
  thread_local Eigen::VectorXd z;
  const SphereContact c = ContactSinceStepStart(step_start, s, z);
  g[0] = c.active && std::isfinite(c.tangential.cap_margin) ? c.tangential.cap_margin : 1.0;
}

double SphereWallImpact::TranslationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * mass_ * s.v.head<3>().squaredNorm();
}
double SphereWallImpact::RotationalKineticEnergy(const MechanicalState& s) const {
  return 0.5 * inertia_ * s.v.segment<3>(3).squaredNorm();
}

std::vector<std::string> SphereWallImpact::ObservableNames() const {
  std::vector<std::string> names = {"delta_n_m",   "normal_force_N", "Ft_x_N",        "Ft_y_N",
                                    "delta_t_x_m", "v_s_x_m_s",      "at_coulomb_cap"};
  for (std::string& n : LedgerObservableNames()) names.push_back(std::move(n));
  return names;
}

void SphereWallImpact::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const SphereContact c = EvaluateContact(s);
  const Eigen::Vector3d vs = SlipVelocity(s);
  // δ_t here is the total tangential displacement of the contact point since first touch (the abscissa of
  // Seed002 Figs. 2, 3, 6); "at_coulomb_cap" is 1 when |F_t| is at μ F_n (gross slip at this state).
  const double delta_t_x = c.active ? SurfaceDisplacement(s.q)[0] - s.z[kSStart] : 0.0;
  values = {std::max(c.delta_n, 0.0),
            c.normal_force,
            c.tangential.force[0],
            c.tangential.force[1],
            delta_t_x,
            vs[0],
            AtCoulombCap(c) ? 1.0 : 0.0};
  AppendLedgerObservables(s, values);
}

}  // namespace impactlab

// --- guards (docs/reliability.md) ---------------------------------------------------------------------
namespace impactlab {

// SphereContactModel::HertzCriticalTimeStep with k_H = 4/3 E* √R, mass m, speed v cos θ; the tangential spring
// acts on 1/m + R²/I = 7/(2m).
std::optional<double> SphereWallImpact::CriticalTimeStep(const MechanicalState& s) const {
  (void)s;
  return HertzCriticalTimeStep(p_.mass(), p_.normal_speed(), p_.e_n, p_.effective_shear_modulus(), p_.radius,
                               1.0 / p_.mass() + p_.radius * p_.radius / p_.inertia());
}

std::optional<double> SphereWallImpact::ContactSize(int contact) const {
  (void)contact;
  return p_.radius;
}

}  // namespace impactlab
