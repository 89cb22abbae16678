#include "metrics/carom_comparison.h"

#include <algorithm>

namespace impactlab {

std::vector<MeasuredImpact> ExtractImpacts(const std::vector<ContactEvent>& events) {
  std::vector<MeasuredImpact> out;
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].kind != ContactEventKind::kStart) continue;
    for (size_t j = i + 1; j < events.size(); ++j) {
      if (events[j].contact == events[i].contact && events[j].kind == ContactEventKind::kEnd) {
        out.push_back({events[i].contact, events[i].t, events[j].t, events[i].state, events[j].state});
        break;
      }
      if (events[j].contact == events[i].contact && events[j].kind == ContactEventKind::kStart) break;
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.t_start < b.t_start; });
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = 0; j < out.size(); ++j)
      if (i != j && out[i].contact != out[j].contact && out[j].t_start < out[i].t_end && out[i].t_start < out[j].t_end)
        out[i].simultaneous = true;
  return out;
}

RouthImpactResult LocalRouthPrediction(const MeasuredImpact& m, const RigidImpactSequence& reference) {
  RigidBodyState2D s;
  s.t = m.t_start;
  s.x = {m.start.q[0], m.start.q[1]};
  s.theta = m.start.q[2];
  s.v = {m.start.v[0], m.start.v[1]};
  s.omega = m.start.v[2];
  return reference.ImpactAt(s, m.contact);
}

nlohmann::json CompareCarom(const std::vector<MeasuredImpact>& measured, const RigidImpactSequence& reference,
                            const std::vector<RigidImpactRecord>& ref, int max_impacts) {
  nlohmann::json out;
  nlohmann::json list = nlohmann::json::array();
  double lv = 0.0, lw = 0.0, gt = 0.0, gv = 0.0, gw = 0.0;
  const size_t n = std::min<size_t>(measured.size(), static_cast<size_t>(max_impacts));
  for (size_t i = 0; i < n; ++i) {
    const MeasuredImpact& m = measured[i];
    nlohmann::json j;
    j["index"] = i + 1;
    j["wall"] = m.contact;
    j["t_start"] = m.t_start;
    j["t_end"] = m.t_end;
    j["v_plus"] = {m.end.v[0], m.end.v[1]};
    j["omega_plus"] = m.end.v[2];
    j["simultaneous"] = m.simultaneous;
    try {
      const RouthImpactResult local = LocalRouthPrediction(m, reference);
      const double ev = (Eigen::Vector2d(m.end.v[0], m.end.v[1]) - local.velocity).norm();
      const double ew = std::abs(m.end.v[2] - local.omega);
      j["local_routh"] = {{"v_plus", {local.velocity.x(), local.velocity.y()}}, {"omega_plus", local.omega},
                          {"velocity_error", ev}, {"omega_error", ew}};
      lv = std::max(lv, ev);
      lw = std::max(lw, ew);
    } catch (const std::exception& e) {
      j["local_routh"] = {{"error", e.what()}};
    }
    if (i < ref.size()) {
      const RigidImpactRecord& r = ref[i];
      const double et = std::abs(m.t_start - r.before.t);
      const double ev = (Eigen::Vector2d(m.end.v[0], m.end.v[1]) - r.after.v).norm();
      const double ew = std::abs(m.end.v[2] - r.after.omega);
      j["reference"] = {{"t", r.before.t}, {"wall", r.wall}, {"v_plus", {r.after.v.x(), r.after.v.y()}},
                        {"omega_plus", r.after.omega}, {"stuck", r.impact.stuck}, {"reversed", r.impact.reversed},
                        {"kinetic_energy_ratio", r.impact.kinetic_energy_ratio}};
      j["global_errors"] = {{"time", et}, {"velocity", ev}, {"omega", ew}, {"same_wall", r.wall == m.contact}};
      gt = std::max(gt, et);
      gv = std::max(gv, ev);
      gw = std::max(gw, ew);
    }
    list.push_back(j);
  }
  out["impacts"] = list;
  out["impacts_measured"] = measured.size();
  out["impacts_reference"] = ref.size();
  out["local_velocity_error_max"] = lv;
  out["local_omega_error_max"] = lw;
  out["global_time_error_max"] = gt;
  out["global_velocity_error_max"] = gv;
  out["global_omega_error_max"] = gw;
  return out;
}

}  // namespace impactlab
