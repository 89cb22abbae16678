#include "models/harmonic_oscillator.h"

#include <cmath>

#include "contact/bilateral_linear_spring.h"
#include "contact/damping/viscous_dampers.h"
#include "core/checks.h"

namespace impactlab {

HarmonicOscillator::HarmonicOscillator(double mass, double stiffness, double q0, double v0)
    : m_(RequirePositive("m", mass)), k_(RequirePositive("k", stiffness)), q0_(RequireFinite("q0", q0)),
      v0_(RequireFinite("v0", v0)) {
  ContactTerm t;
  t.kind = ContactTerm::Kind::kWall;
  t.wall_gradient = {{0, -1.0}};  // δ = −q, W(δ) = ½kδ² = ½kq²
  t.elastic = std::make_shared<BilateralLinearSpring>(k_);
  t.damping = std::make_shared<NoDamping>();
  terms_.push_back(t);
}

MechanicalState HarmonicOscillator::InitialState() const {
  MechanicalState s;
  s.q = Eigen::VectorXd::Constant(1, q0_);
  s.v = Eigen::VectorXd::Constant(1, v0_);
  s.z.resize(0);
  return s;
}

Eigen::SparseMatrix<double> HarmonicOscillator::PotentialHessian(const Eigen::VectorXd&) const {
  Eigen::SparseMatrix<double> h(1, 1);
  h.insert(0, 0) = k_;
  return h;
}

double HarmonicOscillator::omega() const { return std::sqrt(k_ / m_); }
double HarmonicOscillator::ExactPosition(double t) const {
  return q0_ * std::cos(omega() * t) + v0_ / omega() * std::sin(omega() * t);
}

}  // namespace impactlab

namespace impactlab {

std::optional<double> HarmonicOscillator::CriticalTimeStep(const MechanicalState& s) const {
  (void)s;
  return 2.0 / omega();
}

}  // namespace impactlab
