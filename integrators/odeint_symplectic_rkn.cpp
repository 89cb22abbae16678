#include "integrators/odeint_symplectic_rkn.h"

#include <boost/numeric/odeint.hpp>
#include <boost/numeric/odeint/stepper/symplectic_rkn_sb3a_m4_mclachlan.hpp>
#include <functional>

#include "core/errors.h"

namespace impactlab {

namespace odeint = boost::numeric::odeint;
using Vec = std::vector<double>;

IntegratorTraits OdeintSymplecticRkn::traits() const {
  IntegratorTraits t;
  t.order = 4;
  t.symplectic = true;
  t.library = "Boost.Odeint";
  t.reference = "McLachlan 1995, SIAM J. Sci. Comput. 16:151-168 (SB3A, m = 4)";
  t.damping_treatment = "velocity frozen at the start of the step (first order in the damping)";
  return t;
}

StepResult OdeintSymplecticRkn::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  if (state.q.size() != state.v.size())
    throw InvalidParameter("integrator", "mclachlan4", "systems with q̇ = v (generalized coordinates, no quaternions)");
  const MechanicalState& before = step_start();  // kept by Step()
  const double p0 = system.DissipationPower(before);
  const auto n = static_cast<size_t>(state.q.size());
  Vec q(state.q.data(), state.q.data() + n), v(state.v.data(), state.v.data() + n);
  MechanicalState scratch = state;
  long evaluations = 0;
  auto coordinate_rate = [](const Vec& vel, Vec& dqdt) { dqdt = vel; };
  auto velocity_rate = [&](const Vec& pos, Vec& dvdt) {
    ++evaluations;
    scratch.q = Eigen::Map<const Eigen::VectorXd>(pos.data(), static_cast<Eigen::Index>(n));
    Eigen::Map<Eigen::VectorXd> a(dvdt.data(), static_cast<Eigen::Index>(n));
    system.Acceleration(scratch, a);
  };
  odeint::symplectic_rkn_sb3a_m4_mclachlan<Vec> stepper;
  stepper.do_step(std::make_pair(coordinate_rate, velocity_rate), std::make_pair(std::ref(q), std::ref(v)),
                  state.t, h);
  stats_.rhs_evaluations += evaluations;
  state.q = Eigen::Map<const Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(n));
  state.v = Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(n));
  state.t = before.t + h;
  system.UpdateHistory(before, state);
  state.dissipated = before.dissipated + 0.5 * h * (p0 + system.DissipationPower(state));
  return {};
}

}  // namespace impactlab
