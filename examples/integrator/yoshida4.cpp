#include "yoshida4.h"

#include <cmath>

using namespace impactlab;

IntegratorTraits Yoshida4::traits() const {
  IntegratorTraits t;
  t.order = 4;
  t.symplectic = true;
  t.library = "examples/integrator";
  t.reference = "Yoshida 1990, Phys. Lett. A 150, 262, eq. (5.19); Forest & Ruth 1990";
  t.damping_treatment = "explicit at the current velocity";
  return t;
}

StepResult Yoshida4::DoStep(const MechanicalSystem& system, MechanicalState& s, double h) {
  const double c = std::cbrt(2.0);
  const double w1 = 1.0 / (2.0 - c), w0 = -c / (2.0 - c);
  const MechanicalState before = s;
  a_.resize(s.v.size());
  qdot_.resize(s.q.size());
  system.Acceleration(s, a_);
  stats_.rhs_evaluations += 1;
  for (double w : {w1, w0, w1}) {
    const double tau = w * h;
    const double p0 = system.DissipationPower(s);
    s.v += 0.5 * tau * a_;
    system.PositionRate(s, qdot_);
    s.q += tau * qdot_;
    system.NormalizeCoordinates(s);
    s.t += tau;
    system.Acceleration(s, a_);
    s.v += 0.5 * tau * a_;
    stats_.rhs_evaluations += 1;
    s.dissipated += 0.5 * tau * (p0 + system.DissipationPower(s));
  }
  s.t = before.t + h;  // exactly t + h (the sub-step lengths add up to h only to round-off)
  system.UpdateHistory(before, s);
  return {};
}
