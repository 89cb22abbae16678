#include "bench/peer_loops.h"

#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <functional>
#include <vector>

#include "contact/hertz_powers.h"

namespace impactlab::bench {

namespace odeint = boost::numeric::odeint;

/// The same velocity Verlet arithmetic written inline: δ = −y, F = k δ^{3/2} (k = 1), m = 1, no damping. The power is
/// the law's (PowerLaw::Force: δ^{3/2} correctly rounded from the square root for Hertz, std::pow otherwise), so the
/// loop gives the framework's bits.
double HandVerletLoop(double stiffness, double exponent, int steps, double dt) {
  double y = 0.0, v = -1.0;
  auto accel = [&](double q) {
    const double delta = -q;
    if (!(delta > 0.0)) return 0.0;
    return stiffness * (exponent == 1.5 ? PowThreeHalves(delta) : std::pow(delta, exponent));
  };
  double a = accel(y);
  for (int i = 0; i < steps; ++i) {
    const double v_half = v + 0.5 * dt * a;
    y += dt * v_half;
    a = accel(y);
    v = v_half + 0.5 * dt * a;
  }
  return y;
}

/// The same loop calling the model's right-hand side through the MechanicalSystem interface (what the
/// framework adds beyond the model: the Integrator seam, rollback copy, FSAL check, finiteness check).
double HandVerletLoopSameRhs(const MechanicalSystem& sys, int steps, double dt) {
  MechanicalState s = sys.InitialState();
  Eigen::VectorXd a(1);
  sys.Acceleration(s, a);
  for (int i = 0; i < steps; ++i) {
    const double v_half = s.v[0] + 0.5 * dt * a[0];
    s.v[0] = v_half;
    s.q[0] += dt * v_half;
    sys.Acceleration(s, a);
    s.v[0] = v_half + 0.5 * dt * a[0];
  }
  return s.q[0];
}

double OdeintVelocityVerletLoop(const MechanicalSystem& osc, int steps, double dt) {
  using Vec = std::vector<double>;
  MechanicalState scratch = osc.InitialState();
  Vec x{scratch.q[0]}, v{scratch.v[0]};
  odeint::velocity_verlet<Vec> stepper;
  auto accel = [&](const Vec& pos, const Vec&, Vec& a, double) {
    scratch.q[0] = pos[0];
    Eigen::Map<Eigen::VectorXd> am(a.data(), 1);
    osc.Acceleration(scratch, am);
  };
  double t = 0;
  for (int i = 0; i < steps; ++i, t += dt) stepper.do_step(accel, std::make_pair(std::ref(x), std::ref(v)), t, dt);
  return x[0];
}

double OdeintRk4Loop(const MechanicalSystem& osc, int steps, double dt) {
  using Vec = std::vector<double>;
  MechanicalState scratch = osc.InitialState();
  Vec y{scratch.q[0], scratch.v[0]};
  odeint::runge_kutta4<Vec> stepper;
  auto rhs = [&](const Vec& x, Vec& dxdt, double) {
    scratch.q[0] = x[0];
    scratch.v[0] = x[1];
    Eigen::Map<Eigen::VectorXd> am(&dxdt[1], 1);
    osc.Acceleration(scratch, am);
    dxdt[0] = x[1];
  };
  double t = 0;
  for (int i = 0; i < steps; ++i, t += dt) stepper.do_step(rhs, y, t, dt);
  return y[0];
}

}  // namespace impactlab::bench
