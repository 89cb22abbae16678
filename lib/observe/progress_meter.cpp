#include "observe/progress_meter.h"

#include <algorithm>
#include <cstdio>

namespace impactlab {

namespace {
std::string Format(const char* fmt, double x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, x);
  return buf;
}
}  // namespace

ProgressMeter::ProgressMeter(std::string label, double t_end, std::function<void(const std::string&, bool)> sink,
                             double delay_s, double interval_s)
    : label_(std::move(label)), t_end_(t_end), delay_s_(delay_s), interval_s_(interval_s), sink_(std::move(sink)) {}

void ProgressMeter::OnStart(const MechanicalSystem&, const MechanicalState& state) {
  start_ = std::chrono::steady_clock::now();
  t0_ = state.t;
  steps_ = 0;
  lines_ = 0;
  last_report_s_ = -1.0;
}

void ProgressMeter::OnStep(const MechanicalSystem&, const MechanicalState& state) {
  if (++steps_ % 64 != 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (elapsed < delay_s_ || (last_report_s_ >= 0.0 && elapsed - last_report_s_ < interval_s_)) return;
  last_report_s_ = elapsed;
  Report(state.t, false);
}

void ProgressMeter::OnFinish(const MechanicalSystem&, const MechanicalState& state) {
  if (lines_ > 0) Report(state.t, true);
}

void ProgressMeter::Report(double t, bool final) {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double span = t_end_ - t0_;
  const double f = span > 0.0 ? std::clamp((t - t0_) / span, 0.0, 1.0) : 1.0;
  std::string line = label_ + ": t = " + Format("%.6g", t) + " of " + Format("%.6g", t_end_) + " s (" +
                     Format("%.1f", 100.0 * f) + " %), " + Format("%.3g", elapsed > 0 ? steps_ / elapsed : 0.0) +
                     " steps/s";
  if (final) line += ", finished in " + Format("%.3g", elapsed) + " s";
  else line += f > 0.0 ? ", ETA " + Format("%.3g", elapsed * (1.0 - f) / f) + " s" : ", ETA unknown";
  ++lines_;
  sink_(line, final);
}

}  // namespace impactlab
