// CayleyMap (lib/geometry/cayley_map.h): the closed-form cay(θ̂) is the rotation of the quaternion p(θ), it is
// orthogonal, and the body-frame derivative dcay(θ) = (1 − θ̂/2)/(1 + |θ|²/4) agrees with central finite
// differences of cay (the transpose, or the other trivialisation (1 + θ̂/2)/(…), would not: checked too).
#include <doctest/doctest.h>

#include "geometry/cayley_map.h"

using namespace impactlab;

namespace {
Eigen::Vector3d Vee(const Eigen::Matrix3d& a) { return Eigen::Vector3d(a(2, 1), a(0, 2), a(1, 0)); }
}  // namespace

TEST_CASE("cayley map: quaternion and matrix forms agree and are rotations") {
  for (const Eigen::Vector3d& theta : {Eigen::Vector3d(0.3, -0.2, 0.5), Eigen::Vector3d(1.7, 0.4, -2.2),
                                      Eigen::Vector3d(0.0, 0.0, 0.0)}) {
    const Eigen::Matrix3d c = CayleyRotation(theta);
    CHECK((c - CayleyQuaternion(theta).toRotationMatrix()).lpNorm<Eigen::Infinity>() < 1e-15);
    CHECK((c.transpose() * c - Eigen::Matrix3d::Identity()).lpNorm<Eigen::Infinity>() < 1e-15);
    CHECK((c * theta - theta).norm() < 1e-15 * (1.0 + theta.norm()));  // θ is the axis
  }
}

TEST_CASE("cayley map: dcay is the body-frame derivative (central finite differences)") {
  const Eigen::Vector3d theta(0.7, -1.1, 0.4);
  const Eigen::Vector3d dirs[] = {Eigen::Vector3d(1.0, 0.0, 0.0), Eigen::Vector3d(0.0, 1.0, 0.0),
                                  Eigen::Vector3d(0.2, -0.5, 0.9)};
  // Central differences with step 1e-5: truncation ~1e-10·|cay'''|, round-off ~1e-16/1e-5 = 1e-11.
  constexpr double kStep = 1e-5, kTol = 1e-9;
  for (const Eigen::Vector3d& d : dirs) {
    const Eigen::Matrix3d derivative =
        (CayleyRotation(theta + kStep * d) - CayleyRotation(theta - kStep * d)) / (2.0 * kStep);
    const Eigen::Matrix3d body = CayleyRotation(theta).transpose() * derivative;
    CHECK((body + body.transpose()).lpNorm<Eigen::Infinity>() < kTol);  // skew: a body-frame increment
    const Eigen::Vector3d expected = CayleyBodyDerivative(theta) * d;
    CHECK((Vee(body) - expected).norm() < kTol);
    // The other trivialisation (spatial increment) differs by far more than the tolerance here.
    const Eigen::Vector3d spatial = (Eigen::Matrix3d::Identity() + 0.5 * SkewMatrix(theta)) * d /
                                    (1.0 + 0.25 * theta.squaredNorm());
    CHECK((Vee(body) - spatial).norm() > 1e-3);
  }
}
