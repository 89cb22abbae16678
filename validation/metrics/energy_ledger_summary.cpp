#include "metrics/energy_ledger_summary.h"

namespace impactlab {

void WriteEnergyLedger(const EnergyLedger& ledger, nlohmann::json& out) {
  out["energy_error_max"] = ledger.energy_error_max();
  out["energy_balance_residual_max"] = ledger.residual_with_generated_max();
  out["integration_residual_max"] = ledger.balance_residual_max();
  out["momentum_drift_max"] =
      ledger.momentum_drift_max() ? nlohmann::json(*ledger.momentum_drift_max()) : nlohmann::json(nullptr);
  const EnergyTerms& t = ledger.last_terms();
  nlohmann::json terms;
  terms["kinetic_J"] = t.kinetic;
  for (const auto& [name, value] : t.stored) terms[name + "_J"] = value;
  terms["damping_work_J"] = t.damping_work;
  terms["friction_work_J"] = t.friction_work;
  terms["generated_work_J"] = t.generated_work;
  terms["external_work_J"] = t.external_work;
  out["energy_terms"] = terms;
}

}  // namespace impactlab
