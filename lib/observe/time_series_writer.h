// TimeSeriesWriter: CSV of every `every`-th accepted step (and the last), columns
//   t_s, q0.., v0.., kinetic_J, potential_J, dissipated_J, energy_J, balance_residual_rel, <model observables>
// written atomically when the run finishes. Each value is its shortest text that reads back to the same double
// (io/shortest_double.h).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "io/atomic_file.h"
#include "observe/step_observer.h"

namespace impactlab {

class TimeSeriesWriter final : public StepObserver {
 public:
  TimeSeriesWriter(std::filesystem::path path, long every = 1);
  void OnStart(const MechanicalSystem& system, const MechanicalState& state) override;
  void OnStep(const MechanicalSystem& system, const MechanicalState& state) override;
  void OnFinish(const MechanicalSystem& system, const MechanicalState& state) override;

 private:
  void Row(const MechanicalSystem& system, const MechanicalState& state);
  std::filesystem::path path_;
  long every_, count_ = 0;
  bool last_written_ = false;
  double e0_ = 0.0;
  std::unique_ptr<AtomicFile> file_;
  std::vector<double> scratch_;
  std::string line_;  ///< the row being formatted (reused)
};

}  // namespace impactlab
