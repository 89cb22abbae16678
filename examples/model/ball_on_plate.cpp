#include "ball_on_plate.h"

#include "contact/bilateral_linear_spring.h"
#include "contact/damping/viscous_dampers.h"
#include "core/checks.h"

using namespace impactlab;

BallOnPlate::BallOnPlate(Parameters p, std::shared_ptr<const NormalContactLaw> law, std::shared_ptr<const DampingLaw> damping)
    : p_(p) {
  RequirePositive("m_ball", p.ball_mass);
  RequirePositive("m_plate", p.plate_mass);
  RequireNonNegative("k_support", p.support_stiffness);
  RequirePositive("v0", p.impact_velocity);
  damped_ = dynamic_cast<const NoDamping*>(damping.get()) == nullptr;
  ContactTerm contact;  // δ = x_p − x_b
  contact.wall_gradient = {{0, -1.0}, {1, 1.0}};
  contact.elastic = std::move(law);
  contact.damping = std::move(damping);
  terms_.push_back(contact);
  if (p.support_stiffness > 0) {  // W = ½ k_s x_p², written as a bilateral spring on δ = x_p
    ContactTerm spring;
    spring.wall_gradient = {{1, 1.0}};
    spring.elastic = std::make_shared<BilateralLinearSpring>(p.support_stiffness);
    spring.damping = std::make_shared<NoDamping>();
    terms_.push_back(spring);
  }
  ValidateContactTerms(*this, 2);
}

MechanicalState BallOnPlate::InitialState() const {
  MechanicalState s;
  s.q = Eigen::Vector2d::Zero();
  s.v = Eigen::Vector2d(-p_.impact_velocity, 0.0);
  s.z.resize(0);
  return s;
}

// V, ∇V, ∇²V written out: the structure helpers (system/pair_potential_structure.h) count a term only while
// its δ > 0 — right for the unilateral contact, wrong for the support spring, which also pulls (x_p > 0).
double BallOnPlate::Potential(const Eigen::VectorXd& q) const {
  return terms_.front().elastic->Potential(q[1] - q[0]) + 0.5 * p_.support_stiffness * q[1] * q[1];
}
void BallOnPlate::PotentialGradient(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> g) const {
  const double f = terms_.front().elastic->Force(q[1] - q[0]);  // W′(δ), 0 for δ ≤ 0
  g[0] = -f;
  g[1] = f + p_.support_stiffness * q[1];
}
Eigen::SparseMatrix<double> BallOnPlate::PotentialHessian(const Eigen::VectorXd& q) const {
  const double k = terms_.front().elastic->Stiffness(q[1] - q[0]);  // W″(δ), 0 for δ < 0
  Eigen::SparseMatrix<double> h(2, 2);
  h.insert(0, 0) = k;
  h.insert(0, 1) = -k;
  h.insert(1, 0) = -k;
  h.insert(1, 1) = k + p_.support_stiffness;
  return h;
}
Eigen::SparseMatrix<double> BallOnPlate::DampingMatrix(const Eigen::VectorXd& q) const {
  return StructureDampingMatrix(*this, q);
}

void BallOnPlate::ContactOverlaps(const MechanicalState& s, std::span<double> overlap, std::span<double> overlap_rate) const {
  overlap[0] = s.q[1] - s.q[0];
  overlap_rate[0] = s.v[1] - s.v[0];
}

double BallOnPlate::PlateEnergy(const MechanicalState& s) const {
  return 0.5 * p_.plate_mass * s.v[1] * s.v[1] + 0.5 * p_.support_stiffness * s.q[1] * s.q[1];
}
