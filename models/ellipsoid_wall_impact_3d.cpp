#include "models/ellipsoid_wall_impact_3d.h"

#include <Eigen/Dense>
#include <cmath>
#include <numbers>

#include "core/checks.h"
#include "dynamics/contact_mass.h"

namespace impactlab {

namespace {
constexpr double kDegree = std::numbers::pi / 180.0;
const PlaneWall kWall{};

Eigen::Quaterniond Orientation(const Eigen::VectorXd& q) {
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

EllipsoidWallImpact3D::EllipsoidWallImpact3D(EllipsoidWall3DParameters parameters)
    : p_((parameters.Validate(), parameters)),
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
  const Eigen::Vector3d force = c.response.force - c.eta * v_cn * kWall.normal;
  const Eigen::Vector3d torque_body = c.rotation.transpose() * c.lever.cross(force);
  v_dot.head<3>() = force / p_.mass;
  v_dot.tail<3>() = (torque_body - omega_body.cross(inertia_.cwiseProduct(omega_body))).cwiseQuotient(inertia_);
}

double EllipsoidWallImpact3D::KineticEnergy(const MechanicalState& s) const {
  const Eigen::Vector3d w = s.v.tail<3>();
  return 0.5 * p_.mass * s.v.head<3>().squaredNorm() + 0.5 * w.dot(inertia_.cwiseProduct(w));
}

double EllipsoidWallImpact3D::PotentialEnergy(const MechanicalState& s) const {
  return ContactAt(s.q).response.potential;
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
  return {"delta_m", "v_cn_m_s", "E_kin_trans_J", "E_kin_rot_J", "W_J", "m_n_star_kg", "k_eff_N_m", "eta_N_s_m"};
}

void EllipsoidWallImpact3D::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const auto c = ContactAt(s.q);
  const Eigen::Vector3d w = s.v.tail<3>();
  const double v_cn = kWall.normal.dot(s.v.head<3>() + (c.rotation * w).cross(c.lever));
  values = {c.geometry.delta, v_cn, 0.5 * p_.mass * s.v.head<3>().squaredNorm(),
            0.5 * w.dot(inertia_.cwiseProduct(w)), c.response.potential, c.m_n_star, c.k_eff, c.eta};
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
