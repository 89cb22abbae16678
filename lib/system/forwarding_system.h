// ForwardingSystem: a MechanicalSystem that forwards every query to a wrapped model. Derive from it to change what
// differs and keep the rest (integrators/rigid_energy_view.h: the energy books of a rigid-contact scheme; the tests'
// wrappers that hide a model's optional extension or its own contact readings). It implements none of the optional
// extensions (ConstantMassSystem, DiscreteContactJacobian, …): an integrator that asks for one sees the plain
// MechanicalSystem. default_hooks() forwards the model's declaration: a wrapper that overrides one of those hooks
// (PositionRate, NormalizeCoordinates, UpdateHistory, DissipationPower) must override default_hooks() too, unless its
// hook agrees with the declaration. The wrapped model must outlive the wrapper.
#pragma once

#include "system/mechanical_system.h"

namespace impactlab {

class ForwardingSystem : public MechanicalSystem {
 public:
  explicit ForwardingSystem(const MechanicalSystem& model) : m_(model) {}

  std::string name() const override { return m_.name(); }
  MechanicalState InitialState() const override { return m_.InitialState(); }
  void PositionRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> q_dot) const override {
    m_.PositionRate(s, q_dot);
  }
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override {
    m_.Acceleration(s, v_dot);
  }
  void AccelerationAtNewVelocity(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const override {
    m_.AccelerationAtNewVelocity(s, v_dot);
  }
  bool velocity_dependent_forces() const override { return m_.velocity_dependent_forces(); }
  DefaultHooks default_hooks() const override { return m_.default_hooks(); }
  void HistoryRate(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> z_dot) const override {
    m_.HistoryRate(s, z_dot);
  }
  void UpdateHistory(const MechanicalState& before, MechanicalState& after) const override {
    m_.UpdateHistory(before, after);
  }
  void NormalizeCoordinates(MechanicalState& s) const override { m_.NormalizeCoordinates(s); }

  double KineticEnergy(const MechanicalState& s) const override { return m_.KineticEnergy(s); }
  double PotentialEnergy(const MechanicalState& s) const override { return m_.PotentialEnergy(s); }
  double DissipationPower(const MechanicalState& s) const override { return m_.DissipationPower(s); }
  EnergyTerms EnergyBooks(const MechanicalState& s) const override { return m_.EnergyBooks(s); }

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
  int num_switches() const override { return m_.num_switches(); }
  void SwitchFunctions(const MechanicalState& step_start, const MechanicalState& s,
                       std::span<double> g) const override {
    m_.SwitchFunctions(step_start, s, g);
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
};

}  // namespace impactlab
