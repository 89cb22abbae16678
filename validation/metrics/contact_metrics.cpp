#include "metrics/contact_metrics.h"

namespace impactlab {

ContactMetrics FirstContactMetrics(const std::vector<ContactEvent>& events, int contact) {
  ContactMetrics m;
  for (const auto& ev : events) {
    if (ev.contact != contact) continue;
    if (!m.contact_started) {
      if (ev.kind != ContactEventKind::kStart) continue;
      m.contact_started = true;
      m.t_start = ev.t;
      m.velocity_in = ev.overlap_rate;
      continue;
    }
    if (ev.kind == ContactEventKind::kMaxOverlap && !m.max_overlap) {
      m.max_overlap = ev.overlap;
      m.t_max_overlap = ev.t;
    } else if (ev.kind == ContactEventKind::kEnd) {
      m.rebounds = true;
      m.t_end = ev.t;
      m.velocity_out = ev.overlap_rate;
      m.contact_duration = m.t_end - m.t_start;
      if (m.velocity_in != 0.0) m.restitution = -m.velocity_out / m.velocity_in;
      break;
    }
  }
  return m;
}

}  // namespace impactlab
