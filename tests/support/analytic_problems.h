// Analytic test problems with closed-form solutions (Drake test_utilities style).
#pragma once

#include <cmath>

#include "system/constant_mass_system.h"

namespace impactlab::testing {

/// m ẍ = −k x:  x(t) = x0 cos ωt + (v0/ω) sin ωt,  ω = √(k/m). E = ½ m v² + ½ k x².
class HarmonicOscillator final : public ConstantMassSystem {
 public:
  HarmonicOscillator(double m, double k, double x0, double v0) : m_(m), k_(k), x0_(x0), v0_(v0) {}
  std::string name() const override { return "harmonic_oscillator"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::VectorXd::Constant(1, x0_);
    s.v = Eigen::VectorXd::Constant(1, v0_);
    s.z.resize(0);
    return s;
  }
  Eigen::VectorXd MassDiagonal() const override { return Eigen::VectorXd::Constant(1, m_); }
  double Potential(const Eigen::VectorXd& q) const override { return 0.5 * k_ * q[0] * q[0]; }
  void PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const override { g[0] = k_ * q[0]; }
  bool velocity_dependent_forces() const override { return false; }
  double omega() const { return std::sqrt(k_ / m_); }
  double ExactPosition(double t) const { return x0_ * std::cos(omega() * t) + v0_ / omega() * std::sin(omega() * t); }
  double ExactVelocity(double t) const {
    return -x0_ * omega() * std::sin(omega() * t) + v0_ * std::cos(omega() * t);
  }

 private:
  double m_, k_, x0_, v0_;
};

/// Free particle in 2D: q(t) = q0 + v0 t exactly.
class FreeParticle final : public ConstantMassSystem {
 public:
  std::string name() const override { return "free_particle"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::Vector2d(0.25, -1.5);
    s.v = Eigen::Vector2d(2.0, 0.5);
    s.z.resize(0);
    return s;
  }
  Eigen::VectorXd MassDiagonal() const override { return Eigen::Vector2d(1.5, 1.5); }
  double Potential(const Eigen::VectorXd&) const override { return 0.0; }
  void PotentialGradient(const Eigen::VectorXd&, Eigen::Ref<Eigen::VectorXd> g) const override { g.setZero(); }
  bool velocity_dependent_forces() const override { return false; }
};

}  // namespace impactlab::testing
