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

/// m ẍ = −k x − c ẋ (underdamped), x(0) = x₀, ẋ(0) = 0:  x(t) = e^{−ζω₀t}(x₀ cos ω_d t + ζω₀x₀/ω_d sin ω_d t),
/// ω₀ = √(k/m), ζ = c/(2√(km)), ω_d = ω₀√(1 − ζ²). Dissipation power c ẋ².
class DampedOscillator final : public MechanicalSystem {
 public:
  DampedOscillator(double m, double k, double c, double x0) : m_(m), k_(k), c_(c), x0_(x0) {}
  std::string name() const override { return "damped_oscillator_test"; }
  MechanicalState InitialState() const override {
    MechanicalState s;
    s.q = Eigen::VectorXd::Constant(1, x0_);
    s.v = Eigen::VectorXd::Zero(1);
    return s;
  }
  void Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> a) const override {
    a[0] = -(k_ * s.q[0] + c_ * s.v[0]) / m_;
  }
  double KineticEnergy(const MechanicalState& s) const override { return 0.5 * m_ * s.v[0] * s.v[0]; }
  double PotentialEnergy(const MechanicalState& s) const override { return 0.5 * k_ * s.q[0] * s.q[0]; }
  double DissipationPower(const MechanicalState& s) const override { return c_ * s.v[0] * s.v[0]; }
  /// Closed form: position and velocity at t.
  void Exact(double t, double& x, double& v) const {
    const double w0 = std::sqrt(k_ / m_), zeta = c_ / (2.0 * std::sqrt(k_ * m_));
    const double wd = w0 * std::sqrt(1.0 - zeta * zeta), decay = std::exp(-zeta * w0 * t);
    const double a = x0_, b = zeta * w0 * x0_ / wd;
    x = decay * (a * std::cos(wd * t) + b * std::sin(wd * t));
    v = decay * ((-a * wd + b * (-zeta * w0)) * std::sin(wd * t) + (b * wd - zeta * w0 * a) * std::cos(wd * t));
  }
  double omega0() const { return std::sqrt(k_ / m_); }

 private:
  double m_, k_, c_, x0_;
};

}  // namespace impactlab::testing
