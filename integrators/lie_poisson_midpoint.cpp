#include "integrators/lie_poisson_midpoint.h"

#include <Eigen/Geometry>
#include <cmath>

#include "core/errors.h"
#include "system/rigid_body_system.h"
#include "system/rigid_rotation_system.h"

namespace impactlab {

namespace {

Eigen::Matrix3d Hat(const Eigen::Vector3d& x) {
  Eigen::Matrix3d m;
  m << 0.0, -x.z(), x.y(), x.z(), 0.0, -x.x(), -x.y(), x.x(), 0.0;
  return m;
}

// R(x) = x − Π_n − (h/2) x × I⁻¹x for x = Π_{n+½};  J = 1 − (h/2)(x̂ I⁻¹ − ω̂), ω = I⁻¹x.
// I⁻¹x is always the correctly rounded quotient x ./ I, never x .* fl(1/I): fl(1/I) carries a fixed relative
// error, and Ω → Π → Ω round trips with it shrink |Π| and E systematically (~1e-17 per step, 1e-12 after 1e5
// steps, measured; docs/rotation.md §3, "Round-off").
class MidpointEulerResidual final : public NewtonSystem {
 public:
  MidpointEulerResidual(const Eigen::Vector3d& inertia, const Eigen::Vector3d& pi0, double h,
                        RigidBodyStepWorkspace& work)
      : inertia_(inertia), inv_(inertia.cwiseInverse()), pi0_(pi0), h_(h), work_(work) {}
  double Evaluate(const Eigen::VectorXd& x, Eigen::VectorXd& r, NewtonJacobian* j) override {
    const Eigen::Vector3d pi = x.head<3>();
    const Eigen::Vector3d omega = pi.cwiseQuotient(inertia_);
    const Eigen::Vector3d gyro = 0.5 * h_ * pi.cross(omega);
    r = pi - pi0_ - gyro;
    if (j) {
      const Eigen::Matrix3d dense =
          Eigen::Matrix3d::Identity() - 0.5 * h_ * (Hat(pi) * inv_.asDiagonal() - Hat(omega));
      AssembleNonzeros(dense, work_.entries, work_.assembler, j->matrix);  // dense.sparseView(0.0, 0.0)
      j->u.resize(0);
      j->w.resize(0);
    }
    return pi.lpNorm<Eigen::Infinity>() + pi0_.lpNorm<Eigen::Infinity>() + gyro.lpNorm<Eigen::Infinity>();
  }

 private:
  Eigen::Vector3d inertia_, inv_, pi0_;
  double h_;
  RigidBodyStepWorkspace& work_;
};

}  // namespace

LiePoissonMidpoint::LiePoissonMidpoint(NewtonOptions newton) : newton_(newton) { newton_.Validate(); }

IntegratorTraits LiePoissonMidpoint::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.implicit = true;
  t.symplectic = false;
  t.conserves_energy = true;
  t.conserves_momentum = true;
  t.library = "impactlab";
  t.reference =
      "implicit midpoint on the Lie-Poisson form of Euler's equations + Cayley attitude update (Hairer, Lubich & "
      "Wanner 2006, §IV.2.1, §VII.5; Austin, Krishnaprasad & Wang 1993; Simo & Wong 1991); with contact, Gonzalez "
      "1996 midpoint discrete gradient in the Cayley coordinate of the step; docs/rotation.md";
  t.damping_treatment =
      "dampers at the midpoint configuration and velocity, their work booked exactly (rigid_body_contact_step.h)";
  return t;
}

StepResult LiePoissonMidpoint::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  if (const auto* loaded = dynamic_cast<const RigidBodySystem*>(&system)) {
    // The step commits the history itself (the tangential law's step on the slip the balances used,
    // DiscreteTangentialLoad); UpdateHistory, the explicit schemes' return mapping, would apply it a second time.
    return RigidBodyContactStep(*loaded, state, h, newton_, stats_, kName, work_);
  }
  const auto* body = dynamic_cast<const RigidRotationSystem*>(&system);
  if (!body)
    throw InvalidParameter("integrator", "\"" + name() + "\"",
                           "a single rigid body in quaternion coordinates (RigidRotationSystem: torque-free top, or "
                           "RigidBodySystem: translating body with contact potential and dampers); model \"" +
                               system.name() + "\" is neither");
  StepResult result;
  if (state.q.size() != 4 || state.v.size() != 3) {
    result.status = StepStatus::kFailed;
    result.cause = StepFailureCause::kUnsupportedState;
    result.message = name() + ": expects q = quaternion [4], v = body angular velocity [3]";
    return result;
  }
  const Eigen::Vector3d inertia = body->PrincipalMoments();
  const Eigen::Vector3d pi0 = inertia.cwiseProduct(state.v.head<3>());
  work_.Reserve(3);
  MidpointEulerResidual residual(inertia, pi0, h, work_);
  Eigen::VectorXd& x = work_.y;
  x = pi0 + 0.5 * h * pi0.cross(state.v.head<3>());  // explicit half step as predictor
  const NewtonReport& rep = SolveNewton(residual, x, pi0.lpNorm<Eigen::Infinity>() + 1e-300, newton_, work_.newton);
  stats_.rhs_evaluations += rep.iterations + 1;
  result = NewtonStepResult(rep);
  if (!rep.converged) return result;
  const Eigen::Vector3d half_angle = 0.5 * h * x.head<3>().cwiseQuotient(inertia);  // h Ω_{n+½} / 2
  const double norm = std::sqrt(1.0 + half_angle.squaredNorm());
  const Eigen::Quaterniond p(1.0 / norm, half_angle.x() / norm, half_angle.y() / norm, half_angle.z() / norm);
  const Eigen::Quaterniond q0(state.q[0], state.q[1], state.q[2], state.q[3]);
  const Eigen::Quaterniond q1 = (q0 * p).normalized();
  // cay(hΩ̂)ᵀ Π_n = Π_n + 2/(1 + |a|²) (Π_n × a + a × (a × Π_n)), a = hΩ_{n+½}/2 (the Cayley/Rodrigues form,
  // without the rounded unit quaternion p).
  const Eigen::Vector3d ap = half_angle.cross(pi0);
  const Eigen::Vector3d pi1 = pi0 + (2.0 / (1.0 + half_angle.squaredNorm())) * (half_angle.cross(ap) - ap);
  state.q << q1.w(), q1.x(), q1.y(), q1.z();
  state.v = pi1.cwiseQuotient(inertia);
  body->UpdateHistory(step_start(), state);
  return result;
}

}  // namespace impactlab
