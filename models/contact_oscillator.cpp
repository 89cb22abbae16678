#include "contact_oscillator.h"

#include "core/checks.h"

namespace impactlab {

void ContactOscillatorParameters::Validate() const {
  RequirePositive("m", mass);
  RequirePositive("v0", impact_velocity);
  RequireNonNegative("initial_gap", initial_gap);
  RequireNonNegative("gravity", gravity);
}

ContactOscillator::ContactOscillator(ContactOscillatorParameters parameters, DampedNormalLaw law)
    : p_(parameters), law_(std::move(law)) {
  p_.Validate();
  if (!law_.elastic || !law_.damping) throw InvalidParameter("normal_law", "<null>", "an elastic and a damping law");
  ContactTerm wall;
  wall.kind = ContactTerm::Kind::kWall;
  wall.wall_gradient = {{0, -1.0}};  // δ = −y
  wall.elastic = law_.elastic;
  wall.damping = law_.damping;
  terms_.push_back(wall);
}

MechanicalState ContactOscillator::InitialState() const {
  MechanicalState s;
  s.q = Eigen::VectorXd::Constant(1, p_.initial_gap);
  s.v = Eigen::VectorXd::Constant(1, -p_.impact_velocity);
  s.z.resize(0);
  return s;
}

double ContactOscillator::Potential(const Eigen::VectorXd& q) const {
  return law_.elastic->Potential(-q[0]) + p_.mass * p_.gravity * q[0];
}
void ContactOscillator::PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const {
  g[0] = -law_.elastic->Force(-q[0]) + p_.mass * p_.gravity;
}
Eigen::SparseMatrix<double> ContactOscillator::PotentialHessian(const Eigen::VectorXd& q) const {
  Eigen::SparseMatrix<double> h(1, 1);
  h.insert(0, 0) = law_.elastic->Stiffness(-q[0]);
  return h;
}
Eigen::SparseMatrix<double> ContactOscillator::DampingMatrix(const Eigen::VectorXd& q) const {
  Eigen::SparseMatrix<double> c(1, 1);
  c.insert(0, 0) = law_.damping->Coefficient(-q[0]);
  return c;
}
void ContactOscillator::ExternalForce(double, Eigen::Ref<Eigen::VectorXd> f) const { f[0] = 0.0; }

void ContactOscillator::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  const double delta = -s.q[0], delta_dot = -s.v[0];
  const double fn = delta > 0.0 ? law_.Force(delta, delta_dot) : 0.0;
  v_dot[0] = fn / p_.mass - p_.gravity;
}
double ContactOscillator::DissipationPower(const MechanicalState& s) const {
  const double delta = -s.q[0], delta_dot = -s.v[0];
  return delta > 0.0 ? law_.DissipationPower(delta, delta_dot) : 0.0;
}
double ContactOscillator::PotentialEnergy(const MechanicalState& s) const {
  // Gravity's potential is measured from the initial height so that E(0) = kinetic energy when y₀ = 0.
  return Potential(s.q);
}

void ContactOscillator::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                        std::span<double> overlap_rate) const {
  overlap[0] = -s.q[0];
  overlap_rate[0] = -s.v[0];
}

void ContactOscillator::Observe(const MechanicalState& s, std::vector<double>& values) const {
  const double delta = -s.q[0], delta_dot = -s.v[0];
  values = {delta, delta_dot, delta > 0.0 ? law_.Force(delta, delta_dot) : 0.0};
}

}  // namespace impactlab
