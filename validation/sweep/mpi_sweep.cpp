#include "sweep/mpi_sweep.h"

#include <stdexcept>

#include "core/errors.h"
#include "core/interrupt.h"
#include "mpi/rank_pool.h"

namespace impactlab {

int ServeSweepCases(const std::function<SweepSpec()>& build_spec, int threads) {
  SweepSpec spec;
  std::string error;
  try {
    spec = build_spec();
  } catch (const std::exception& e) {
    error = e.what();
  }
  const std::vector<std::string> integrators = error.empty() ? SweepIntegrators(spec) : std::vector<std::string>{};
  return ServeRankPool(
      threads > 0 ? threads : 1,
      [&](const nlohmann::json& task) {
        const size_t c = task.at("case").get<size_t>(), i = task.at("integrator").get<size_t>();
        RunRequest request;
        request.scenario = SweepCase(spec, c);
        request.integrators = {integrators.at(i)};
        return RunScenario(request)["runs"][0];
      },
      error);
}

MpiSweep::MpiSweep(int threads, const std::string& out_dir)
    : pool_(std::make_shared<RankPool>(threads > 0 ? threads : 1,
                                       "every stored row is kept in " + out_dir + "/sweep.csv or, if not yet folded in, in sweep.csv.journal",
                                       /*prefetch=*/1)) {}

MpiSweep::~MpiSweep() = default;

int MpiSweep::ranks() const { return pool_->ranks(); }
int MpiSweep::compute_threads() const { return pool_->compute_threads(); }

void MpiSweep::Attach(const SweepSpec& spec, SweepOptions& options) {
  if (const std::string e = pool_->setup_error(); !e.empty()) throw std::runtime_error(e);
  options.threads = pool_->slots();
  auto pool = pool_;
  auto shared_spec = std::make_shared<SweepSpec>(spec);
  auto integrators = std::make_shared<std::vector<std::string>>(SweepIntegrators(spec));
  options.run_case = [pool, shared_spec, integrators](size_t c, size_t i, const RunRequest& request) {
    const std::string label = "case " + std::to_string(c) + " (" + SweepCaseLabel(*shared_spec, c) + ", " +
                              integrators->at(i) + ")";
    try {
      return pool->Run({{"case", c}, {"integrator", i}}, label, [&] { return RunScenario(request)["runs"][0]; });
    } catch (const RemoteTaskError& e) {
      if (e.kind() == "step_failure") throw StepFailure(e.what());
      if (e.kind() == "interrupted") throw Interrupted(e.what());
      throw std::runtime_error(label + ": " + e.what());
    }
  };
}

}  // namespace impactlab
