#include "registry/integrator_model_matrix.h"

#include <cmath>
#include <exception>

#include "core/errors.h"
#include "core/parameter_set.h"
#include "registry/registries.h"

namespace impactlab {

namespace {

constexpr int kTrialSteps = 3;

// "" when `integrator` advances `model` for a few steps from its initial state, else the reason.
std::string TryPair(const std::string& integrator_name, const std::string& model_name) {
  try {
    const auto& entry = ModelRegistry().Get(model_name);
    const ModelInstance model = entry.make(entry.example);
    const auto integrator = IntegratorRegistry().Get(integrator_name).make(ParameterSet{});
    MechanicalState state = model.system->InitialState();
    const std::optional<double> dt_crit = model.system->CriticalTimeStep(state);
    const double h = dt_crit && std::isfinite(*dt_crit) && *dt_crit > 0.0 ? 0.1 * *dt_crit : 1e-6;
    integrator->Reset();
    for (int i = 0; i < kTrialSteps; ++i) {
      const StepResult r = integrator->Step(*model.system, state, h);
      if (r.status != StepStatus::kAccepted) return "step not accepted: " + r.message;
    }
    if (!state.IsFinite()) return "non-finite state after " + std::to_string(kTrialSteps) + " steps";
    return "";
  } catch (const InvalidParameter& e) {
    return e.valid_range();
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace

std::vector<MatrixCell> IntegratorModelMatrix() {
  std::vector<MatrixCell> cells;
  for (const auto& integrator : IntegratorRegistry().names())
    for (const auto& model : ModelRegistry().names()) {
      MatrixCell c{integrator, model, false, TryPair(integrator, model)};
      c.runs = c.reason.empty();
      cells.push_back(std::move(c));
    }
  return cells;
}

}  // namespace impactlab
