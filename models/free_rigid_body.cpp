#include "models/free_rigid_body.h"

#include <cmath>
#include <string>

#include "core/checks.h"
#include "core/errors.h"

namespace impactlab {

namespace {

std::string FormatVector(const Eigen::VectorXd& x) {
  std::string s = "(";
  for (Eigen::Index i = 0; i < x.size(); ++i) s += (i ? ", " : "") + InvalidParameter::FormatNumber(x[i]);
  return s + ")";
}

Eigen::Quaterniond Orientation(const Eigen::VectorXd& q) {
  return Eigen::Quaterniond(q[0], q[1], q[2], q[3]).normalized();
}

}  // namespace

void FreeRigidBodyParameters::Validate() const {
  const char* names[3] = {"I1", "I2", "I3"};
  for (int i = 0; i < 3; ++i) {
    RequireFinite(names[i], inertia[i]);
    if (!(inertia[i] > 0.0)) throw InvalidParameter(names[i], inertia[i], "> 0 [kg m^2]");
  }
  for (int i = 0; i < 3; ++i) {
    const double others = inertia[(i + 1) % 3] + inertia[(i + 2) % 3];
    if (inertia[i] > others)
      throw InvalidParameter(names[i], inertia[i],
                             "<= " + std::string(names[(i + 1) % 3]) + " + " + names[(i + 2) % 3] + " = " +
                                 InvalidParameter::FormatNumber(others) +
                                 " [kg m^2] (triangle inequality of a real mass distribution)");
  }
  const char* omega_names[3] = {"omega_x", "omega_y", "omega_z"};
  for (int i = 0; i < 3; ++i) RequireFinite(omega_names[i], angular_velocity[i]);
  if (!quaternion.allFinite() || !(quaternion.norm() > 0.0))
    throw InvalidParameter("quaternion", FormatVector(quaternion),
                           "four finite numbers (w, x, y, z), not all zero (normalized on input)");
}

FreeRigidBody::FreeRigidBody(FreeRigidBodyParameters parameters) : p_((parameters.Validate(), parameters)) {}

MechanicalState FreeRigidBody::InitialState() const {
  MechanicalState s;
  s.q = p_.quaternion / p_.quaternion.norm();
  s.v = p_.angular_velocity;
  s.z.resize(0);
  return s;
}

void FreeRigidBody::PositionRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> q_dot) const {
  const Eigen::Quaterniond quat(s.q[0], s.q[1], s.q[2], s.q[3]);
  const Eigen::Quaterniond rate = quat * Eigen::Quaterniond(0.0, s.v[0], s.v[1], s.v[2]);
  q_dot << 0.5 * rate.w(), 0.5 * rate.x(), 0.5 * rate.y(), 0.5 * rate.z();
}

void FreeRigidBody::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  const Eigen::Vector3d omega = s.v.head<3>();
  v_dot = p_.inertia.cwiseProduct(omega).cross(omega).cwiseQuotient(p_.inertia);
}

void FreeRigidBody::NormalizeCoordinates(MechanicalState& s) const { s.q.normalize(); }

double FreeRigidBody::KineticEnergy(const MechanicalState& s) const {
  const Eigen::Vector3d omega = s.v.head<3>();
  return 0.5 * omega.dot(p_.inertia.cwiseProduct(omega));
}

std::optional<Eigen::Vector3d> FreeRigidBody::AngularMomentum(const MechanicalState& s) const {
  return Orientation(s.q) * Eigen::Vector3d(p_.inertia.cwiseProduct(s.v.head<3>()));
}

std::vector<std::string> FreeRigidBody::ObservableNames() const {
  return {"L_x_kg_m2_s", "L_y_kg_m2_s", "L_z_kg_m2_s", "quaternion_norm"};
}

void FreeRigidBody::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const Eigen::Vector3d l = *AngularMomentum(s);
  values = {l.x(), l.y(), l.z(), s.q.norm()};
}

}  // namespace impactlab
