#include "models/ellipsoid_wall_impact_3d.h"

#include <Eigen/Dense>
#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "dynamics/contact_mass.h"
#include "geometry/cayley_map.h"

namespace impactlab {

namespace {
constexpr double kDegree = std::numbers::pi / 180.0;
const PlaneWall kWall{};

// q: a state's positions or the configuration slice of the history (a reference, never a copy).
Eigen::Quaterniond Orientation(const Eigen::Ref<const Eigen::VectorXd>& q) {
  return Eigen::Quaterniond(q[3], q[4], q[5], q[6]).normalized();
}

double ProjectedMass(double mass, const Eigen::Matrix3d& world_inertia, const Eigen::Vector3d& lever) {
  return ProjectedNormalMass(InverseEffectiveMassBodyWall({mass, world_inertia, lever}), kWall.normal);
}
}  // namespace

void EllipsoidWall3DParameters::Validate() const {
  shape.Validate();
  RequirePositive("mass", mass);
  RequireInClosed("theta_deg", theta_deg, -180.0, 180.0);
  RequireInClosed("tilt_deg", tilt_deg, -180.0, 180.0);
  for (int i = 0; i < 3; ++i) {
    RequireFinite("velocity", velocity[i]);
    RequireFinite("angular_velocity", angular_velocity[i]);
  }
  if (!(velocity.z() < 0.0)) throw InvalidParameter("v_z", velocity.z(), "< 0 (towards the wall) [m/s]");
  RequireNonNegative("gap", gap);
  RequirePositive("K_n", K_n);
  RequireInLeftOpen("e_cn", e_cn, 0.0, 1.0);
  if (!(std::isfinite(gravity) && gravity >= 0.0))
    throw InvalidParameter("g", gravity, ">= 0 and finite (gravity [m/s^2], pointing -z)");
}

Eigen::Vector3d EllipsoidWall3DParameters::body_inertia() const {
  const Eigen::Vector3d s = shape.semi_axes.cwiseAbs2();
  return mass / 5.0 * Eigen::Vector3d(s[1] + s[2], s[0] + s[2], s[0] + s[1]);
}

Eigen::Matrix3d EllipsoidWall3DParameters::initial_rotation() const {
  return AxisAngleRotation(Eigen::Vector3d::UnitX(), tilt_deg * kDegree) *
         AxisAngleRotation(Eigen::Vector3d::UnitY(), theta_deg * kDegree);
}

namespace {
double InitialFixedMass(const EllipsoidWall3DParameters& p) {
  if (p.damping != DampingMassMode::kFixedInitialMass) return p.mass;
  const Eigen::Matrix3d r = p.initial_rotation();
  const auto g = EvaluateEllipsoidPlane(p.shape, Eigen::Vector3d::Zero(), r, kWall);
  return ProjectedMass(p.mass, r * p.body_inertia().asDiagonal() * r.transpose(), g.support_point);
}
}  // namespace

EllipsoidWallImpact3D::EllipsoidWallImpact3D(EllipsoidWall3DParameters parameters,
                                             std::shared_ptr<const EllipsoidWallFriction> friction)
    : p_((parameters.Validate(), parameters)),
      friction_(std::move(friction)),
      inertia_(p_.body_inertia()),
      law_(p_.K_n),
      damping_(p_.e_cn, p_.damping, InitialFixedMass(p_)) {}

MechanicalState EllipsoidWallImpact3D::InitialState() const {
  const Eigen::Quaterniond quat(p_.initial_rotation());
  MechanicalState s;
  s.q.resize(7);
  s.q << 0.0, 0.0, 0.0, quat.w(), quat.x(), quat.y(), quat.z();
  // h from the same (normalized-quaternion) rotation ContactAt uses, so that δ(0) = −gap exactly.
  const Eigen::Matrix3d r = Orientation(s.q).toRotationMatrix();
  const auto g = EvaluateEllipsoidPlane(p_.shape, Eigen::Vector3d::Zero(), r, kWall);
  s.q[2] = g.h + p_.gap;
  s.v.resize(6);
  s.v << p_.velocity, r.transpose() * p_.angular_velocity;
  s.z.resize(0);
  if (friction_) {
    s.z = Eigen::VectorXd::Zero(friction_->history_size());
    s.z[EllipsoidWallFriction::kDeltaPrev] = ContactAt(s.q).geometry.delta;
    s.z.segment<7>(EllipsoidWallFriction::kConfiguration) = s.q;
  }
  return s;
}

void EllipsoidWallImpact3D::PositionRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> q_dot) const {
  q_dot.head<3>() = s.v.head<3>();
  const Eigen::Quaterniond quat(s.q[3], s.q[4], s.q[5], s.q[6]);
  const Eigen::Quaterniond omega(0.0, s.v[3], s.v[4], s.v[5]);
  const Eigen::Quaterniond rate = quat * omega;
  q_dot[3] = 0.5 * rate.w();
  q_dot[4] = 0.5 * rate.x();
  q_dot[5] = 0.5 * rate.y();
  q_dot[6] = 0.5 * rate.z();
}

void EllipsoidWallImpact3D::NormalizeCoordinates(MechanicalState& s) const { s.q.segment<4>(3).normalize(); }

Eigen::Matrix3d EllipsoidWallImpact3D::WorldInertia(const Eigen::VectorXd& q) const {
  const Eigen::Matrix3d r = Orientation(q).toRotationMatrix();
  return r * inertia_.asDiagonal() * r.transpose();
}

EllipsoidWall3DContactState EllipsoidWallImpact3D::ContactAt(const Eigen::VectorXd& q) const {
  return ContactAt(Eigen::Vector3d(q.head<3>()), Orientation(q).toRotationMatrix());
}

EllipsoidWall3DContactState EllipsoidWallImpact3D::ContactAt(const Eigen::Vector3d& centre,
                                                             const Eigen::Matrix3d& rotation) const {
  EllipsoidWall3DContactState c;
  c.rotation = rotation;
  c.geometry = EvaluateEllipsoidPlane(p_.shape, centre, c.rotation, kWall);
  c.response = law_.Evaluate(p_.shape, c.geometry, centre, kWall.normal);
  c.lever = (c.geometry.in_contact() ? c.geometry.section_centroid : c.geometry.support_point) - centre;
  c.m_n_star = ProjectedMass(p_.mass, c.rotation * inertia_.asDiagonal() * c.rotation.transpose(), c.lever);
  if (c.geometry.delta >= 0.0) {
    c.k_eff = EccEffectiveStiffness(p_.K_n, p_.shape.semi_axes.prod(), c.geometry.h, c.geometry.t);
    c.eta = damping_.Coefficient(c.m_n_star, c.k_eff);
  }
  return c;
}

RigidBodyLoad EllipsoidWallImpact3D::ConservativeLoad(const Eigen::Vector3d& centre,
                                                      const Eigen::Matrix3d& rotation) const {
  const auto g = EvaluateEllipsoidPlane(p_.shape, centre, rotation, kWall);
  const auto response = law_.Evaluate(p_.shape, g, centre, kWall.normal);
  RigidBodyLoad load;
  load.potential = response.potential;
  load.force = response.force;
  load.torque_body = rotation.transpose() * response.torque;
  if (p_.gravity != 0.0) {
    load.potential += GravityPotential(centre.z());
    load.force.z() -= p_.mass * p_.gravity;
  }
  return load;
}

RigidBodyDissipativeLoad EllipsoidWallImpact3D::DissipativeLoad(const Eigen::Vector3d& centre,
                                                                const Eigen::Matrix3d& rotation,
                                                                const Eigen::Vector3d& velocity,
                                                                const Eigen::Vector3d& omega_body) const {
  RigidBodyDissipativeLoad load;
  const auto c = ContactAt(centre, rotation);
  if (c.eta == 0.0) return load;
  const double v_cn = kWall.normal.dot(velocity + (rotation * omega_body).cross(c.lever));
  load.force = -c.eta * v_cn * kWall.normal;
  load.torque_body = rotation.transpose() * c.lever.cross(load.force);
  return load;
}

Eigen::Vector3d EllipsoidWallImpact3D::WorldAngularVelocity(const MechanicalState& s) const {
  return Orientation(s.q).toRotationMatrix() * s.v.tail<3>();
}

double EllipsoidWallImpact3D::ContactNormalVelocity(const MechanicalState& s) const {
  const auto c = ContactAt(s.q);
  return kWall.normal.dot(s.v.head<3>() + (c.rotation * s.v.tail<3>()).cross(c.lever));
}

void EllipsoidWallImpact3D::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  const auto c = ContactAt(s.q);
  const Eigen::Vector3d omega_body = s.v.tail<3>();
  const Eigen::Vector3d omega = c.rotation * omega_body;
  const double v_cn = kWall.normal.dot(s.v.head<3>() + omega.cross(c.lever));
  Eigen::Vector3d force = c.response.force - c.eta * v_cn * kWall.normal;
  if (friction_) force += FrictionAt(s, c);  // at the contact point x̄, as the normal force
  const Eigen::Vector3d torque_body = c.rotation.transpose() * c.lever.cross(force);
  if (p_.gravity != 0.0) force.z() -= p_.mass * p_.gravity;  // at the centre: no torque
  v_dot.head<3>() = force / p_.mass;
  v_dot.tail<3>() = (torque_body - omega_body.cross(inertia_.cwiseProduct(omega_body))).cwiseQuotient(inertia_);
}

double EllipsoidWallImpact3D::KineticEnergy(const MechanicalState& s) const {
  const Eigen::Vector3d w = s.v.tail<3>();
  return 0.5 * p_.mass * s.v.head<3>().squaredNorm() + 0.5 * w.dot(inertia_.cwiseProduct(w));
}

double EllipsoidWallImpact3D::PotentialEnergy(const MechanicalState& s) const {
  const auto c = ContactAt(s.q);
  double v = c.response.potential;
  if (p_.gravity != 0.0) v += GravityPotential(s.q[2]);  // the order of ConservativeLoad (the same rounding)
  if (friction_) v += friction_->StoredEnergy(s.z, c.geometry.delta);
  return v;
}

EnergyTerms EllipsoidWallImpact3D::EnergyBooks(const MechanicalState& s) const {
  if (!friction_ && p_.gravity == 0.0) return MechanicalSystem::EnergyBooks(s);
  const auto c = ContactAt(s.q);
  EnergyTerms e;
  e.kinetic = KineticEnergy(s);
  e.stored = {{"contact", c.response.potential},
              {"gravity", GravityPotential(s.q[2])},
              {"tangential_elastic", friction_ ? friction_->StoredEnergy(s.z, c.geometry.delta) : 0.0}};
  e.damping_work = s.dissipated;
  if (friction_) {
    e.friction_work = friction_->FrictionWork(s.z);
    e.generated_work = friction_->GeneratedWork(s.z);
  }
  return e;
}

double EllipsoidWallImpact3D::EffectiveRadius(const Eigen::Ref<const Eigen::VectorXd>& q) const {
  return EvaluateEllipsoidPlane(p_.shape, Eigen::Vector3d(q.head<3>()), Orientation(q).toRotationMatrix(), kWall)
      .gaussian_radius;
}

double EllipsoidWallImpact3D::RadiusAtCommitted(const Eigen::VectorXd& z) const {
  return EffectiveRadius(z.segment<7>(EllipsoidWallFriction::kConfiguration));  // a view of z (no temporary vector)
}

Eigen::Vector3d EllipsoidWallImpact3D::SlipIncrement(const Eigen::Vector3d& dx, const Eigen::Vector3d& theta,
                                                     const Eigen::Vector3d& centre_mid,
                                                     const Eigen::Matrix3d& rotation_mid,
                                                     Eigen::Vector3d* lever_mid) const {
  const auto g = EvaluateEllipsoidPlane(p_.shape, centre_mid, rotation_mid, kWall);
  const Eigen::Vector3d lever = (g.in_contact() ? g.section_centroid : g.support_point) - centre_mid;
  if (lever_mid) *lever_mid = lever;
  Eigen::Vector3d slip = dx + (rotation_mid * theta).cross(lever);
  slip.z() = 0.0;  // P_t, n = e_z
  return slip;
}

namespace {
// (Δx, θ, midpoint) of the motion from the configuration committed in z to positions q.
struct CommittedMotion {
  Eigen::Vector3d dx, theta, centre_mid;
  Eigen::Matrix3d rotation_mid;
  bool moved = false;
};
CommittedMotion MotionFromCommitted(const Eigen::VectorXd& z, const Eigen::VectorXd& q) {
  constexpr int k = EllipsoidWallFriction::kConfiguration;
  CommittedMotion m;
  const Eigen::Vector3d x0 = z.segment<3>(k);
  const Eigen::Quaterniond q0 = Eigen::Quaterniond(z[k + 3], z[k + 4], z[k + 5], z[k + 6]).normalized();
  m.dx = q.head<3>() - x0;
  m.theta = CayleyCoordinate(q0.conjugate() * Orientation(q));
  m.moved = m.dx.squaredNorm() > 0.0 || m.theta.squaredNorm() > 0.0;
  m.centre_mid = x0 + 0.5 * m.dx;
  m.rotation_mid = q0.toRotationMatrix() * CayleyRotation(0.5 * m.theta);
  return m;
}
}  // namespace

Eigen::Vector3d EllipsoidWallImpact3D::FrictionAt(const MechanicalState& s, const EllipsoidWall3DContactState& c) const {
  if (!friction_ || !c.geometry.in_contact()) return Eigen::Vector3d::Zero();
  const CommittedMotion m = MotionFromCommitted(s.z, s.q);
  const Eigen::Vector3d slip =
      m.moved ? SlipIncrement(m.dx, m.theta, m.centre_mid, m.rotation_mid) : Eigen::Vector3d::Zero();
  const double radius = s.z[EllipsoidWallFriction::kRadius] > 0.0 ? 0.0 : RadiusAtCommitted(s.z);
  return friction_->Step(c.geometry.delta, c.response.normal_force, slip, radius, s.z, nullptr).force;
}

Eigen::Vector3d EllipsoidWallImpact3D::TangentialForce(const MechanicalState& s) const {
  return FrictionAt(s, ContactAt(s.q));
}

void EllipsoidWallImpact3D::UpdateHistory(const MechanicalState& before, MechanicalState& after) const {
  if (!friction_) return;
  // A pure function of (before, after.q): the slip from the configuration committed in before.z.
  const auto g = EvaluateEllipsoidPlane(p_.shape, Eigen::Vector3d(after.q.head<3>()),
                                        Orientation(after.q).toRotationMatrix(), kWall);
  const double normal_force =
      g.in_contact() ? law_.Evaluate(p_.shape, g, Eigen::Vector3d(after.q.head<3>()), kWall.normal).normal_force : 0.0;
  const CommittedMotion m = MotionFromCommitted(before.z, after.q);
  const Eigen::Vector3d slip =
      m.moved ? SlipIncrement(m.dx, m.theta, m.centre_mid, m.rotation_mid) : Eigen::Vector3d::Zero();
  const double radius =
      g.in_contact() && !(before.z[EllipsoidWallFriction::kRadius] > 0.0) ? RadiusAtCommitted(before.z) : 0.0;
  friction_->Step(g.delta, normal_force, slip, radius, before.z, &after.z);  // after.z ← before.z, then the step
  after.z.segment<7>(EllipsoidWallFriction::kConfiguration) = after.q;
}

RigidBodyTangentialLoad EllipsoidWallImpact3D::DiscreteTangentialLoad(const MechanicalState& before,
                                                                      const RigidBodyStepGeometry& step,
                                                                      Eigen::VectorXd& z_next) const {
  if (!friction_) return RigidBodySystem::DiscreteTangentialLoad(before, step, z_next);
  const auto g1 = EvaluateEllipsoidPlane(p_.shape, step.centre_end, step.rotation_end, kWall);
  const double normal_force =
      g1.in_contact() ? law_.Evaluate(p_.shape, g1, step.centre_end, kWall.normal).normal_force : 0.0;
  RigidBodyTangentialLoad load;
  Eigen::Vector3d lever_mid;
  load.slip = SlipIncrement(step.dx, step.theta, step.centre_mid, step.rotation_mid, &lever_mid);
  const double radius =
      g1.in_contact() && !(before.z[EllipsoidWallFriction::kRadius] > 0.0) ? RadiusAtCommitted(before.z) : 0.0;
  const EllipsoidWallFrictionStep f = friction_->Step(g1.delta, normal_force, load.slip, radius, before.z, &z_next);
  z_next.segment<3>(EllipsoidWallFriction::kConfiguration) = step.centre_end;
  z_next.segment<4>(EllipsoidWallFriction::kConfiguration + 3) = step.quaternion_end;
  // Ḡᵀ f̄_t: F·Δx + τ·θ = f̄_t·(Δx + (R_m θ) × r_m) = f̄_t·Δs (f̄_t has no normal component).
  load.force = f.algorithmic_force;
  load.torque_body = step.rotation_mid.transpose() * lever_mid.cross(f.algorithmic_force);
  load.friction_work = f.friction_work;
  load.generated_work = f.generated_work;
  return load;
}

double EllipsoidWallImpact3D::DissipationPower(const MechanicalState& s) const {
  const auto c = ContactAt(s.q);
  const double v_cn = kWall.normal.dot(s.v.head<3>() + (c.rotation * s.v.tail<3>()).cross(c.lever));
  return c.eta * v_cn * v_cn;
}

void EllipsoidWallImpact3D::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                            std::span<double> overlap_rate) const {
  const Eigen::Vector3d centre = s.q.head<3>();
  const Eigen::Matrix3d r = Orientation(s.q).toRotationMatrix();
  const auto g = EvaluateEllipsoidPlane(p_.shape, centre, r, kWall);
  overlap[0] = g.delta;
  overlap_rate[0] = -kWall.normal.dot(s.v.head<3>() + (r * s.v.tail<3>()).cross(g.support_point - centre));
}

std::vector<std::string> EllipsoidWallImpact3D::ObservableNames() const {
  std::vector<std::string> names = {"delta_m", "v_cn_m_s",    "E_kin_trans_J", "E_kin_rot_J",
                                    "W_J",     "m_n_star_kg", "k_eff_N_m",     "eta_N_s_m"};
  if (friction_)
    names.insert(names.end(), {"Ft_x_N", "Ft_y_N", "tangential_elastic_J", "friction_work_J", "generated_work_J"});
  return names;
}

void EllipsoidWallImpact3D::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const auto c = ContactAt(s.q);
  const Eigen::Vector3d w = s.v.tail<3>();
  const double v_cn = kWall.normal.dot(s.v.head<3>() + (c.rotation * w).cross(c.lever));
  values = {c.geometry.delta, v_cn, 0.5 * p_.mass * s.v.head<3>().squaredNorm(),
            0.5 * w.dot(inertia_.cwiseProduct(w)), c.response.potential, c.m_n_star, c.k_eff, c.eta};
  if (friction_) {
    const Eigen::Vector3d ft = FrictionAt(s, c);
    values.insert(values.end(), {ft.x(), ft.y(), friction_->StoredEnergy(s.z, c.geometry.delta),
                                 friction_->FrictionWork(s.z), friction_->GeneratedWork(s.z)});
  }
}

}  // namespace impactlab

namespace impactlab {

// As EllipsoidWallImpact::CriticalTimeStep (Seed000 eq. 15) with the 3D projected mass m_n* = (nᵀ M_eff⁻¹ n)⁻¹.
std::optional<double> EllipsoidWallImpact3D::CriticalTimeStep(const MechanicalState& s) const {
  const EllipsoidWall3DContactState c = ContactAt(s.q);
  const double k_eff = EccEffectiveStiffness(p_.K_n, p_.shape.semi_axes.prod(), c.geometry.h, 0.0);
  const Eigen::Vector3d lever = c.geometry.support_point - s.q.head<3>();
  const double m_n = ProjectedNormalMass(InverseEffectiveMassBodyWall({p_.mass, WorldInertia(s.q), lever}),
                                         Eigen::Vector3d::UnitZ());
  if (!(k_eff > 0.0 && m_n > 0.0)) return std::nullopt;
  const double xi = damping_.damping_ratio();
  return 2.0 / CriticalContactFrequency(k_eff, m_n) * (std::sqrt(1.0 + xi * xi) - xi);
}

std::optional<double> EllipsoidWallImpact3D::ContactSize(int contact) const {
  (void)contact;
  return p_.shape.semi_axes.minCoeff();
}

}  // namespace impactlab
