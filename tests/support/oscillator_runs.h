// Helpers to simulate the 1D contact oscillator with a given integrator and read its first-contact metrics.
#pragma once

#include <memory>
#include <string>

#include "contact/damped_normal_law.h"
#include "integrators/cvode_bdf.h"
#include "integrators/simulation.h"
#include "metrics/contact_metrics.h"
#include "models/contact_oscillator.h"

namespace impactlab::testing {

/// Simulates one impact to separation with CVODE at tight tolerance and returns the contact metrics.
inline ContactMetrics CvodeImpact(std::shared_ptr<const NormalContactLaw> elastic,
                                  std::shared_ptr<const DampingLaw> damping, double m, double v0,
                                  double rtol = 1e-12) {
  ContactOscillatorParameters p;
  p.mass = m;
  p.impact_velocity = v0;
  ContactOscillator osc(p, DampedNormalLaw{std::move(elastic), std::move(damping)});
  CvodeBdfOptions o;
  o.rel_tol = rtol;
  o.abs_tol = 1e-15;
  CvodeBdf cvode(o);
  // Output step: 1/200 of the undamped contact time scale δ*/v0 with δ* from ½ m v0² = W(δ*).
  double lo = 0, hi = 1;
  while (osc.law().elastic->Potential(hi) < 0.5 * m * v0 * v0) hi *= 2;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (osc.law().elastic->Potential(mid) < 0.5 * m * v0 * v0 ? lo : hi) = mid;
  }
  const double scale = hi / v0;
  SimulationOptions so;
  so.dt = scale / 50.0;
  so.t_end = 200.0 * scale;
  so.stop_after_separation = so.dt;
  auto record = Simulate(osc, cvode, osc.InitialState(), so, {});
  return FirstContactMetrics(record.events, 0);
}

}  // namespace impactlab::testing
