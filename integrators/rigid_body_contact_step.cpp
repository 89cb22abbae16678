#include "integrators/rigid_body_contact_step.h"

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "geometry/cayley_map.h"

namespace impactlab {

namespace {

// Everything one residual evaluation produces (the accepted step reuses it).
struct RigidBodyStepTrial {
  Eigen::Vector3d v1, omega_half, pi_half, dx, theta;
  Eigen::Quaterniond q1;
  RigidBodyDissipativeLoad dissipative;
  RigidBodyTangentialLoad tangential;
};

// R(y), y = (v_{n+1}, ℓ Ω_{n+½}) [m/s]:
//   R_v = v_{n+1} − v_n − (h/m) F̄,    R_ω = ℓ (Π_{n+½} − Π_n − (h/2)(Π_{n+½} × Ω_{n+½} + τ̄)) ./ I
class RigidBodyContactResidual final : public NewtonSystem {
 public:
  RigidBodyContactResidual(const RigidBodySystem& body, const MechanicalState& s0, double h,
                           RigidBodyStepWorkspace& work)
      : body_(body), before_(s0), h_(h), mass_(body.Mass()), inertia_(body.PrincipalMoments()), z_trial_(work.z_trial),
        work_(work) {
    z_trial_ = s0.z;
    length_ = std::sqrt(inertia_.maxCoeff() / mass_);
    x0_ = s0.q.head<3>();
    q0_ = Eigen::Quaterniond(s0.q[3], s0.q[4], s0.q[5], s0.q[6]).normalized();
    r0_ = q0_.toRotationMatrix();
    v0_ = s0.v.head<3>();
    omega0_ = s0.v.tail<3>();
    pi0_ = inertia_.cwiseProduct(omega0_);
    load0_ = body_.ConservativeLoad(x0_, r0_);
  }

  double length() const { return length_; }
  const RigidBodyLoad& start_load() const { return load0_; }
  /// The history of the last residual evaluation (the model's z_next for that iterate).
  const Eigen::VectorXd& z_trial() const { return z_trial_; }

  /// Explicit predictor: v_n + (h/m) F_c(n), Ω_n + (h/2) I⁻¹(Π_n × Ω_n + τ_c(n)).
  void Predictor(Eigen::VectorXd& y) const {
    y.resize(6);
    y.head<3>() = v0_ + (h_ / mass_) * load0_.force;
    y.tail<3>() = length_ * (omega0_ + 0.5 * h_ * (pi0_.cross(omega0_) + load0_.torque_body).cwiseQuotient(inertia_));
  }

  // Residual only; returns its scale.
  double Residual(const Eigen::VectorXd& y, Eigen::VectorXd& r, RigidBodyStepTrial* trial) const {
    RigidBodyStepTrial t;
    t.v1 = y.head<3>();
    t.omega_half = y.tail<3>() / length_;
    t.pi_half = inertia_.cwiseProduct(t.omega_half);
    t.dx = 0.5 * h_ * (v0_ + t.v1);
    t.theta = h_ * t.omega_half;
    t.q1 = (q0_ * CayleyQuaternion(t.theta)).normalized();
    const Eigen::Vector3d x1 = x0_ + t.dx;
    // V at the end exactly as the next step (q0_ below) and the ledger read the stored quaternion: normalized
    // once more. Normalizing is not idempotent in floating point; without this the ΔV of successive steps do not
    // telescope and the balance drifted by ~3e-17 E₀ per step in contact (measured, docs/rotation.md §6).
    const Eigen::Quaterniond q1_read = Eigen::Quaterniond(t.q1.w(), t.q1.x(), t.q1.y(), t.q1.z()).normalized();
    const Eigen::Matrix3d r1_read = q1_read.toRotationMatrix();
    const double v1_potential = body_.ConservativeLoad(x1, r1_read).potential;
    const Eigen::Vector3d xm = x0_ + 0.5 * t.dx;
    const Eigen::Matrix3d rm = r0_ * CayleyRotation(0.5 * t.theta);
    const RigidBodyLoad mid = body_.ConservativeLoad(xm, rm);
    // g: the midpoint gradient of V_n (its part along ξ exactly; header).
    const Eigen::Vector3d g_x = -mid.force;
    const Eigen::Vector3d g_theta = -mid.torque_body / (1.0 + t.theta.squaredNorm() / 16.0);
    const double dv = v1_potential - load0_.potential;
    const double xi_w_xi = mass_ * t.dx.squaredNorm() + t.theta.dot(inertia_.cwiseProduct(t.theta));
    Eigen::Vector3d grad_x = g_x, grad_theta = g_theta;
    if (xi_w_xi > 0.0) {
      const double c = (dv - g_x.dot(t.dx) - g_theta.dot(t.theta)) / xi_w_xi;
      grad_x += c * mass_ * t.dx;
      grad_theta += c * inertia_.cwiseProduct(t.theta);
    }
    t.dissipative = body_.DissipativeLoad(xm, rm, t.dx / h_, t.omega_half);
    // The tangential load Ḡᵀ f̄_t of the step (zero for a body without one): the model's law step on the slip
    // Δs = Ḡξ with Ḡ at the midpoint configuration (system/rigid_body_system.h); its history goes to z_trial_.
    RigidBodyStepGeometry geometry;
    geometry.dx = t.dx;
    geometry.theta = t.theta;
    geometry.centre_mid = xm;
    geometry.rotation_mid = rm;
    geometry.centre_end = x1;
    geometry.rotation_end = r1_read;
    geometry.quaternion_end << t.q1.w(), t.q1.x(), t.q1.y(), t.q1.z();
    t.tangential = body_.DiscreteTangentialLoad(before_, geometry, z_trial_);
    const Eigen::Vector3d force = -grad_x + t.dissipative.force + t.tangential.force;
    const Eigen::Vector3d torque = -grad_theta + t.dissipative.torque_body + t.tangential.torque_body;
    const Eigen::Vector3d impulse = (h_ / mass_) * force;
    r.resize(6);
    r.head<3>() = t.v1 - v0_ - impulse;
    const Eigen::Vector3d rhs = (0.5 * h_) * (t.pi_half.cross(t.omega_half) + torque);
    r.tail<3>() = length_ * (t.pi_half - pi0_ - rhs).cwiseQuotient(inertia_);
    if (trial) *trial = t;
    return t.v1.lpNorm<Eigen::Infinity>() + v0_.lpNorm<Eigen::Infinity>() + impulse.lpNorm<Eigen::Infinity>() +
           length_ * (t.omega_half.lpNorm<Eigen::Infinity>() + omega0_.lpNorm<Eigen::Infinity>() +
                      rhs.cwiseQuotient(inertia_).lpNorm<Eigen::Infinity>()) +
           1e-300;
  }

  double Evaluate(const Eigen::VectorXd& y, Eigen::VectorXd& r, NewtonJacobian* j) override {
    const double scale = Residual(y, r, nullptr);
    if (j) {
      // Central differences, relative step ε^{1/3} of each unknown's magnitude (velocity units).
      // Typical size: the state's velocities plus what the start-of-step loads add over h.
      const double typical = v0_.lpNorm<Eigen::Infinity>() + length_ * omega0_.lpNorm<Eigen::Infinity>() +
                             (h_ / mass_) * load0_.force.lpNorm<Eigen::Infinity>() +
                             length_ * h_ * load0_.torque_body.cwiseQuotient(inertia_).lpNorm<Eigen::Infinity>() +
                             1e-12;
      Eigen::Matrix<double, 6, 6> dense;
      Eigen::VectorXd &yp = work_.probe_plus, &ym = work_.probe_minus, &rp = work_.r_plus, &rm = work_.r_minus;
      yp = y;
      ym = y;
      for (int i = 0; i < 6; ++i) {
        const double step = 6e-6 * std::max(std::abs(y[i]), typical);
        yp[i] = y[i] + step;
        ym[i] = y[i] - step;
        Residual(yp, rp, nullptr);
        Residual(ym, rm, nullptr);
        dense.col(i) = (rp - rm) / (yp[i] - ym[i]);
        yp[i] = ym[i] = y[i];
      }
      AssembleNonzeros(dense, work_.entries, work_.assembler, j->matrix);  // dense.sparseView(0.0, 0.0)
      j->u.resize(0);
      j->w.resize(0);
      evaluations_ += 12;
    }
    ++evaluations_;
    return scale;
  }

  long evaluations() const { return evaluations_; }

 private:
  const RigidBodySystem& body_;
  const MechanicalState& before_;
  double h_, mass_, length_ = 1.0;
  Eigen::Vector3d inertia_, x0_, v0_, omega0_, pi0_;
  Eigen::Quaterniond q0_;
  Eigen::Matrix3d r0_;
  RigidBodyLoad load0_;
  Eigen::VectorXd& z_trial_;  // the workspace's: no allocation in the Newton loop
  RigidBodyStepWorkspace& work_;
  long evaluations_ = 0;
};

}  // namespace

void RigidBodyStepWorkspace::Reserve(Eigen::Index n) {
  if (sized_n == n) return;
  sized_n = n;
  newton.Reserve(n);
  newton.ReserveJacobian(n * n);
  for (Eigen::VectorXd* v : {&y, &r, &probe_plus, &probe_minus, &r_plus, &r_minus}) v->resize(n);
  entries.reserve(static_cast<std::size_t>(n * n));
  assembler.ReserveEntries(static_cast<std::size_t>(n * n), n);
}

StepResult RigidBodyContactStep(const RigidBodySystem& body, MechanicalState& state, double h,
                                const NewtonOptions& newton, StepStatistics& stats, std::string_view name,
                                RigidBodyStepWorkspace& workspace) {
  StepResult result;
  if (state.q.size() != 7 || state.v.size() != 6) {
    result.status = StepStatus::kFailed;
    result.cause = StepFailureCause::kUnsupportedState;
    result.message = std::string(name) + ": expects q = (x_G [3], quaternion [4]), v = (v_G [3], body angular velocity [3])";
    return result;
  }
  workspace.Reserve(6);
  RigidBodyContactResidual residual(body, state, h, workspace);
  Eigen::VectorXd& y = workspace.y;
  residual.Predictor(y);
  const double step_scale = state.v.head<3>().lpNorm<Eigen::Infinity>() +
                            residual.length() * state.v.tail<3>().lpNorm<Eigen::Infinity>() + 1e-300;
  const NewtonReport& rep = SolveNewton(residual, y, step_scale, newton, workspace.newton);
  stats.newton_iterations += rep.iterations;
  stats.jacobian_evaluations += rep.jacobian_evaluations;
  stats.rhs_evaluations += residual.evaluations();
  result.newton_iterations = rep.iterations;
  result.residual_norm = rep.residual_norm;
  if (!rep.converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = rep.cause;
    result.message = std::string(name) + ": " + rep.message;
    return result;
  }
  RigidBodyStepTrial t;
  residual.Residual(y, workspace.r, &t);
  const Eigen::Vector3d inertia = body.PrincipalMoments();
  const Eigen::Vector3d pi0 = inertia.cwiseProduct(state.v.tail<3>());
  const Eigen::Vector3d pi1 = 2.0 * t.pi_half - pi0;
  // ΔD = −(F_d·Δx + τ_d·θ): the work of exactly the dampers the balances used.
  state.dissipated -= t.dissipative.force.dot(t.dx) + t.dissipative.torque_body.dot(t.theta);
  state.q.head<3>() += t.dx;
  state.q.segment<4>(3) << t.q1.w(), t.q1.x(), t.q1.y(), t.q1.z();
  state.v.head<3>() = t.v1;
  state.v.tail<3>() = pi1.cwiseQuotient(inertia);
  // The history (tangential law, its books) of exactly the load the balances used: ΔT + ΔV + ΔD = f̄_t·Δs =
  // U_prev − U_new − W_f + W_g (system/rigid_body_system.h).
  state.z = residual.z_trial();
  return result;
}

}  // namespace impactlab
