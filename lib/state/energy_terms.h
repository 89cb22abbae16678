// EnergyTerms: the typed energy books of one state, which every model reports through
// MechanicalSystem::EnergyBooks and one observer (observe/energy_ledger.h) checks for every model
// [docs/theory.md §6 "Energy bookkeeping", §7]:
//
//   E = T + Σ V_i                       kinetic + each stored energy (contact springs, potentials) [J]
//   books = E + D_damping + W_friction − W_generated − W_external
//
// D_damping, W_friction, W_generated, W_external are cumulative since t = 0 [J]: dashpot work (≥ 0), slip work of
// the tangential laws including springs released at separation (≥ 0), energy a non-conservative law creates by
// itself (signed; the Mindlin integral laws, reported, never hidden) and work of external forces that are not
// potentials. Exact books keep `books` constant; the ledger's balance residual is max |books(t) − books(0)| / |E(0)|.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace impactlab {

struct EnergyTerms {
  double kinetic = 0.0;
  std::vector<std::pair<std::string, double>> stored;  ///< named stored energies, e.g. {"normal_elastic", W}
  double damping_work = 0.0;
  double friction_work = 0.0;
  double generated_work = 0.0;
  double external_work = 0.0;

  double StoredTotal() const {
    double s = 0.0;
    for (const auto& [name, value] : stored) s += value;
    return s;
  }
  /// E = T + Σ V.
  double Energy() const { return kinetic + StoredTotal(); }
  /// E + D + W_f − W_g − W_ext: constant when the books are exact.
  double Books() const { return Energy() + damping_work + friction_work - generated_work - external_work; }
};

}  // namespace impactlab
