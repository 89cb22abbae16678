// RigidEnergyView: the model as observers see it when a RigidContactScheme advances it — every query forwarded to
// the model but the energy, which is the rigid problem's (integrators/rigid_contact_scheme.h):
//   T, V = Σ stored of RigidEnergyBooks (no compliant contact energy W(δ), no tangential spring U_t),
//   EnergyBooks = RigidEnergyBooks (D = impulse work),  DissipationPower = 0 (impulses act at instants).
// Without it the ledger of a Moreau–Jean run counts W(δ) of the states that end an impact step inside the
// obstacle (up to h|v|/2 deep) and, on models with history-dependent friction, the compliant law's friction work:
// neither is part of the rigid solution (docs/nonsmooth-peers.md, "Energy books").
#pragma once

#include "integrators/rigid_contact_scheme.h"
#include "system/forwarding_system.h"

namespace impactlab {

class RigidEnergyView final : public ForwardingSystem {
 public:
  RigidEnergyView(const MechanicalSystem& model, const RigidContactScheme& scheme)
      : ForwardingSystem(model), scheme_(scheme) {}

  double KineticEnergy(const MechanicalState& s) const override { return scheme_.RigidEnergyBooks(model(), s).kinetic; }
  double PotentialEnergy(const MechanicalState& s) const override {
    return scheme_.RigidEnergyBooks(model(), s).StoredTotal();
  }
  double DissipationPower(const MechanicalState& s) const override {
    (void)s;
    return 0.0;
  }
  EnergyTerms EnergyBooks(const MechanicalState& s) const override { return scheme_.RigidEnergyBooks(model(), s); }

 private:
  const RigidContactScheme& scheme_;
};

}  // namespace impactlab
