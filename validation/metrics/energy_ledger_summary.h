// The energy ledger's keys of a run summary, written by one function for every model (the scenario runner, the
// studies and the tests call it; no model writes these keys):
//   energy_error_max                max |E − E₀|/E₀
//   energy_balance_residual_max     max |E + D + W_f − W_ext − E₀|/E₀   (counts what a law creates, W_g, as error)
//   integration_residual_max        max |E + D + W_f − W_g − W_ext − E₀|/E₀  (the scheme's books; W_g as a term)
//   momentum_drift_max              max relative drift of P and L (null where undefined)
//   energy_terms                    the typed books of the final state (state/energy_terms.h)
#pragma once

#include <nlohmann/json.hpp>

#include "observe/energy_ledger.h"

namespace impactlab {

void WriteEnergyLedger(const EnergyLedger& ledger, nlohmann::json& out);

}  // namespace impactlab
