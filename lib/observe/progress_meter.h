// ProgressMeter: a step observer that reports how far a long run has got, for `impactlab run`
// (docs/reliability.md, "Runs that never fail quietly").
//
// Silent for the first `delay_s` seconds of wall time (short runs print nothing); then, at most every
// `interval_s`, one line
//   "<label>: t = 0.0123 of 0.05 s (24.6 %), 1.23e+04 steps/s, ETA 12.3 s"
// with the fraction f = (t − t₀)/(t_end − t₀) of simulated time, the mean step rate since the start and
// ETA = elapsed · (1 − f)/f (assumes the step rate stays constant). When at least one line was shown,
// OnFinish reports the total. The clock is read every 64 steps only, so the meter costs nothing measurable.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "observe/step_observer.h"

namespace impactlab {

class ProgressMeter final : public StepObserver {
 public:
  /// `sink(line, final)` receives each line (final = true for the closing one).
  ProgressMeter(std::string label, double t_end, std::function<void(const std::string&, bool)> sink,
                double delay_s = 1.0, double interval_s = 0.5);
  void OnStart(const MechanicalSystem& system, const MechanicalState& state) override;
  void OnStep(const MechanicalSystem& system, const MechanicalState& state) override;
  void OnFinish(const MechanicalSystem& system, const MechanicalState& state) override;
  /// Number of progress lines shown so far (the closing line included).
  int lines() const { return lines_; }

 private:
  void Report(double t, bool final);
  std::string label_;
  double t_end_, t0_ = 0.0, delay_s_, interval_s_, last_report_s_ = -1.0;
  std::function<void(const std::string&, bool)> sink_;
  std::chrono::steady_clock::time_point start_;
  long steps_ = 0;
  int lines_ = 0;
};

}  // namespace impactlab
