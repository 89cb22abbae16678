#include "dynamics/contact_mass.h"

#include <Eigen/Dense>
#include <cmath>

#include "core/checks.h"

namespace impactlab {

Eigen::Matrix3d CrossMatrix(const Eigen::Vector3d& r) {
  Eigen::Matrix3d s;
  s << 0.0, -r.z(), r.y(), r.z(), 0.0, -r.x(), -r.y(), r.x(), 0.0;
  return s;
}

namespace {
Eigen::Matrix3d BodyTerm(const ContactBody& body) {
  RequirePositive("mass", body.mass);
  const Eigen::Matrix3d rx = CrossMatrix(body.lever);
  return Eigen::Matrix3d::Identity() / body.mass - rx * body.inertia.inverse() * rx;
}
}  // namespace

Eigen::Matrix3d InverseEffectiveMassBodyWall(const ContactBody& body) { return BodyTerm(body); }

Eigen::Matrix3d InverseEffectiveMassTwoBodies(const ContactBody& a, const ContactBody& b) {
  return BodyTerm(a) + BodyTerm(b);
}

double ProjectedNormalMass(const Eigen::Matrix3d& w, const Eigen::Vector3d& n) { return 1.0 / n.dot(w * n); }

double CouplingIndex(const Eigen::Matrix3d& w, const Eigen::Vector3d& n, const Eigen::Vector3d& t) {
  const double tt = t.dot(w * t), nn = n.dot(w * n);
  if (tt <= 0.0 || nn <= 0.0) return 0.0;
  return std::abs(t.dot(w * n)) / std::sqrt(tt * nn);
}

double CriticalContactFrequency(double k_eff, double m_n_star) {
  RequireNonNegative("k_eff", k_eff);
  RequirePositive("m_n_star", m_n_star);
  return std::sqrt(k_eff / m_n_star);
}

}  // namespace impactlab
