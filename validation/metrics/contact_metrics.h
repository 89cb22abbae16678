// Contact metrics of one contact from the located events of a run [docs/theory.md §1]:
//   restitution e = −δ̇(t_end)/δ̇(t_start)   (first contact; e = −v_out/v_in at the located crossings)
//   contact duration t_c = t_end − t_start
//   maximum overlap δ_max (at the located δ̇ = 0 crossing; else the largest sampled value)
// `rebounds` is false when the contact never ends within the run (over-damped or captured body).
#pragma once

#include <optional>
#include <vector>

#include "observe/contact_event.h"

namespace impactlab {

struct ContactMetrics {
  bool contact_started = false;
  bool rebounds = false;
  double t_start = 0.0, t_end = 0.0;
  double velocity_in = 0.0, velocity_out = 0.0;  ///< δ̇ at start (> 0) and end (< 0)
  std::optional<double> restitution, contact_duration, max_overlap, t_max_overlap;
};

/// Metrics of the first contact of `contact` in the event list.
ContactMetrics FirstContactMetrics(const std::vector<ContactEvent>& events, int contact = 0);

}  // namespace impactlab
