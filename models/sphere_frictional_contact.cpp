#include "models/sphere_frictional_contact.h"

#include <Eigen/Geometry>

namespace impactlab {

void ContactTangentBasis(const Eigen::Vector3d& n, Eigen::Vector3d& t1, Eigen::Vector3d& t2) {
  t1 = Eigen::Vector3d::UnitX() - n.x() * n;
  if (t1.squaredNorm() < 0.75) t1 = Eigen::Vector3d::UnitY() - n.y() * n;
  t1.normalize();
  t2 = n.cross(t1);
}

void AddSphereContactColumns(const Eigen::Vector3d& n, double radius, int at, double side, Eigen::MatrixXd& jacobian) {
  Eigen::Vector3d t[2];
  ContactTangentBasis(n, t[0], t[1]);
  jacobian.block<1, 3>(0, at) += side * n.transpose();
  for (int k = 0; k < 2; ++k) {
    jacobian.block<1, 3>(1 + k, at) += side * t[k].transpose();
    jacobian.block<1, 3>(1 + k, at + 3) += -radius * n.cross(t[k]).transpose();
  }
}

Eigen::Vector3d NormalRate(const Eigen::Vector3d& r, const Eigen::Vector3d& r_dot) {
  const double d = r.norm();
  const Eigen::Vector3d n = r / d;
  return (r_dot - n * n.dot(r_dot)) / d;
}

}  // namespace impactlab
