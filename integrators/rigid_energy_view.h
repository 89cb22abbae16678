// RigidEnergyView: the model as observers see it when a RigidContactScheme advances it — every query forwarded to
// the model but the energy, which is the rigid problem's (integrators/rigid_contact_scheme.h):
//   T, V = Σ stored of RigidEnergyBooks (no compliant contact energy W(δ), no tangential spring U_t),
//   EnergyBooks = RigidEnergyBooks (D = impulse work),  DissipationPower = 0 (impulses act at instants).
// Without it the ledger of a Moreau–Jean run counts W(δ) of the states that end an impact step inside the
// obstacle (up to h|v|/2 deep) and, on models with history-dependent friction, the compliant law's friction work:
// neither is part of the rigid solution (docs/nonsmooth-peers.md, "Energy books").
#pragma once

#include "integrators/rigid_contact_scheme.h"
#include "system/mechanical_system.h"

namespace impactlab {

class RigidEnergyView final : public MechanicalSystem {
 public:
  RigidEnergyView(const MechanicalSystem& model, const RigidContactScheme& scheme) : m_(model), scheme_(scheme) {}

  std::string name() const override { return m_.name(); }
  MechanicalState InitialState() const override { return m_.InitialState(); }
  void PositionRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> q_dot) const override {
    m_.PositionRate(s, q_dot);
  }
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override {
    m_.Acceleration(s, v_dot);
  }
  bool velocity_dependent_forces() const override { return m_.velocity_dependent_forces(); }
  void HistoryRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> z_dot) const override {
    m_.HistoryRate(s, z_dot);
  }
  void UpdateHistory(const MechanicalState& before, MechanicalState& after) const override {
    m_.UpdateHistory(before, after);
  }
  void NormalizeCoordinates(MechanicalState& s) const override { m_.NormalizeCoordinates(s); }

  double KineticEnergy(const MechanicalState& s) const override { return scheme_.RigidEnergyBooks(m_, s).kinetic; }
  double PotentialEnergy(const MechanicalState& s) const override {
    return scheme_.RigidEnergyBooks(m_, s).StoredTotal();
  }
  double DissipationPower(const MechanicalState& s) const override {
    (void)s;
    return 0.0;
  }
  EnergyTerms EnergyBooks(const MechanicalState& s) const override { return scheme_.RigidEnergyBooks(m_, s); }

  int num_contacts() const override { return m_.num_contacts(); }
  void ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                       std::span<double> overlap_rate) const override {
    m_.ContactOverlaps(s, overlap, overlap_rate);
  }
  ContactReading ContactOverlapOf(const MechanicalState& s, int contact) const override {
    return m_.ContactOverlapOf(s, contact);
  }
  void TouchingContacts(const MechanicalState& s, std::vector<ContactReading>& out) const override {
    m_.TouchingContacts(s, out);
  }
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override { return m_.CriticalTimeStep(s); }
  std::optional<double> ContactSize(int contact) const override { return m_.ContactSize(contact); }
  std::optional<Eigen::Vector3d> LinearMomentum(const MechanicalState& s) const override {
    return m_.LinearMomentum(s);
  }
  std::optional<Eigen::Vector3d> AngularMomentum(const MechanicalState& s) const override {
    return m_.AngularMomentum(s);
  }
  std::optional<double> LinearMomentumScale(const MechanicalState& s) const override {
    return m_.LinearMomentumScale(s);
  }
  std::optional<double> AngularMomentumScale(const MechanicalState& s) const override {
    return m_.AngularMomentumScale(s);
  }
  std::vector<std::string> ObservableNames() const override { return m_.ObservableNames(); }
  void Observe(const MechanicalState& s, std::vector<double>& values) const override { m_.Observe(s, values); }

  const MechanicalSystem& model() const { return m_; }

 private:
  const MechanicalSystem& m_;
  const RigidContactScheme& scheme_;
};

}  // namespace impactlab
