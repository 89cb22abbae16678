// HarmonicOscillator: m q̈ = −k q, the smooth reference problem for convergence orders [Hairer, Lubich &
// Wanner 2006, §I.1]. Exact solution q(t) = q₀ cos ωt + (v₀/ω) sin ωt, ω = √(k/m); H = ½mv² + ½kq².
// Exposes its potential as one wall-type term δ = −q with a BilateralLinearSpring (so every scheme,
// the contact-term-based conserving ones included, runs on it). No contact events.
#pragma once

#include "system/constant_mass_system.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

class HarmonicOscillator final : public ConstantMassSystem, public PairPotentialStructure {
 public:
  /// m [kg] > 0, k [N/m] > 0, initial q₀ [m], v₀ [m/s].
  HarmonicOscillator(double mass, double stiffness, double q0, double v0);
  std::string name() const override { return "harmonic_oscillator"; }
  MechanicalState InitialState() const override;
  Eigen::VectorXd MassDiagonal() const override { return Eigen::VectorXd::Constant(1, m_); }
  double Potential(const Eigen::VectorXd& q) const override { return 0.5 * k_ * q[0] * q[0]; }
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const override { g[0] = k_ * q[0]; }
  Eigen::SparseMatrix<double> PotentialHessian(const Eigen::VectorXd& q) const override;
  bool velocity_dependent_forces() const override { return false; }
  /// q̇ = v, no normalisation, no history, no dissipation (system/default_hooks.h).
  DefaultHooks default_hooks() const override { return {true, true, true, true}; }
  const std::vector<ContactTerm>& ContactTerms() const override { return terms_; }
  /// Exact position at time t.
  double ExactPosition(double t) const;
  double omega() const;
  /// Velocity Verlet / central difference are stable for ω Δt < 2: Δt_crit = 2/ω (exact for this system).
  std::optional<double> CriticalTimeStep(const MechanicalState& s) const override;

 private:
  double m_, k_, q0_, v0_;
  std::vector<ContactTerm> terms_;
};

}  // namespace impactlab
