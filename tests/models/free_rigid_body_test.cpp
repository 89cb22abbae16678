// FreeRigidBody (models/free_rigid_body.h): the torque-free top's rates (quaternion kinematics, Euler's
// equations), its conserved E and spatial L, its registration as "free_rigid_body" and the rejection of bad input
// (non-positive moments, the triangle inequality, a zero quaternion) with one line naming the key — exit 2 on the
// command line.
#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "core/errors.h"
#include "models/free_rigid_body.h"
#include "registry/registries.h"
#include "support/run_impactlab.h"

using namespace impactlab;

TEST_CASE("free rigid body model: Euler's equations, quaternion rate and the conserved quantities") {
  FreeRigidBodyParameters p;
  p.inertia = Eigen::Vector3d(1.0, 2.0, 2.5);
  p.angular_velocity = Eigen::Vector3d(0.3, -1.0, 0.7);
  p.quaternion = Eigen::Vector4d(2.0, 0.0, 0.0, 0.0);  // normalized on input
  const FreeRigidBody model(p);
  const MechanicalState s = model.InitialState();
  CHECK(s.q.norm() == doctest::Approx(1.0).epsilon(1e-15));
  Eigen::VectorXd a(3), qd(4);
  model.Acceleration(s, a);
  const Eigen::Vector3d w = p.angular_velocity, i = p.inertia;
  CHECK(a[0] == doctest::Approx((i[1] - i[2]) * w[1] * w[2] / i[0]));  // I₁Ω̇₁ = (I₂ − I₃)Ω₂Ω₃
  CHECK(a[1] == doctest::Approx((i[2] - i[0]) * w[2] * w[0] / i[1]));
  CHECK(a[2] == doctest::Approx((i[0] - i[1]) * w[0] * w[1] / i[2]));
  model.PositionRate(s, qd);
  CHECK(qd[0] == doctest::Approx(0.0));
  CHECK(qd.tail<3>().isApprox(0.5 * w));
  CHECK(model.KineticEnergy(s) == doctest::Approx(0.5 * w.dot(i.cwiseProduct(w))));
  CHECK(model.AngularMomentum(s)->isApprox(i.cwiseProduct(w)));
  // E and L are constant along the flow: their time derivatives vanish.
  CHECK(std::abs(a.dot(i.cwiseProduct(w))) < 1e-14);
  CHECK(model.num_contacts() == 0);
}

TEST_CASE("free rigid body model: bad input names the parameter and its valid range") {
  auto make = [](const ParameterSet& ps) { return ModelRegistry().Get("free_rigid_body").make(ps); };
  auto rejects = [&](ParameterSet ps, const std::string& key, const std::string& fragment) {
    try {
      (void)make(ps);
      FAIL("expected InvalidParameter for " << key);
    } catch (const InvalidParameter& e) {
      CHECK(e.parameter() == key);
      CHECK(std::string(e.what()).find(fragment) != std::string::npos);
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
  };
  ParameterSet zero;
  zero.Set("I2", 0.0);
  rejects(zero, "I2", "> 0");
  ParameterSet negative;
  negative.Set("I1", -1.0);
  rejects(negative, "I1", "> 0");
  ParameterSet triangle;  // I3 = 3.5 > I1 + I2 = 3
  triangle.Set("I3", 3.5);
  rejects(triangle, "I3", "triangle inequality");
  ParameterSet quaternion;
  quaternion.Set("quaternion", std::vector<double>{0.0, 0.0, 0.0, 0.0});
  rejects(quaternion, "quaternion", "not all zero");
  ParameterSet short_quaternion;
  short_quaternion.Set("quaternion", std::vector<double>{1.0, 0.0, 0.0});
  rejects(short_quaternion, "quaternion", "four numbers");
  ParameterSet flat;  // a lamina, I3 = I1 + I2, is a real body
  flat.Set("I3", 3.0);
  CHECK_NOTHROW((void)make(flat));
}

TEST_CASE("free rigid body model: impactlab run with a zero quaternion exits 2 with one line") {
  const auto o = test::RunImpactlab(std::string("run ") + IMPACTLAB_SOURCE_DIR +
                                    "/validation/scenarios/free_rigid_body.toml --set quaternion=0,0,0,0");
  CHECK(o.status == 2);
  CHECK(o.out.find("quaternion") != std::string::npos);
  CHECK(o.out.find("not all zero") != std::string::npos);
}
