#include "integrators/efda.h"

#include "core/errors.h"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "core/checks.h"
#include "planar/planar_contact_system.h"
#include "planar/planar_vector.h"

namespace impactlab {

namespace {

// Difference quotient of V = ½ K ⟨δ⟩² (exact ΔV / Δδ, never 0/0).
double PenaltyQuotient(double k, double d0, double d1) {
  if (d0 > 0.0 && d1 > 0.0) return 0.5 * k * (d0 + d1);
  const double p0 = std::max(d0, 0.0), p1 = std::max(d1, 0.0);
  if (p0 == 0.0 && p1 == 0.0) return 0.0;
  return 0.5 * k * (p1 * p1 - p0 * p0) / (d1 - d0);
}

struct LocalContact {
  int n = 0;          // local size: 3 (wall) or 6 (pair)
  int dof[6] = {0};   // global indices
  // Zero-padded beyond n, so full 6-vector dot products equal the local ones.
  Eigen::Matrix<double, 6, 1> grad_delta = Eigen::Matrix<double, 6, 1>::Zero();
  Eigen::Matrix<double, 6, 1> grad_s = Eigen::Matrix<double, 6, 1>::Zero();
  Eigen::Matrix<double, 6, 1> dq = Eigen::Matrix<double, 6, 1>::Zero();
  Eigen::Matrix<double, 6, 1> weight = Eigen::Matrix<double, 6, 1>::Zero();
};

class Evaluator {
 public:
  Evaluator(const PlanarContactSystem& pcs, const std::vector<int>& slots) : pcs_(pcs), slots_(slots) {}

  // Generalized force f(q0, q1) (external included), new springs z1 and the step's energy report.
  void Evaluate(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, const Eigen::VectorXd& z0, double h,
                Eigen::VectorXd& f, Eigen::VectorXd& z1, EfdaStepReport& rep) const {
    const PlanarPenalty& law = pcs_.penalty();
    f = pcs_.ExternalForce();
    z1 = z0;
    rep = EfdaStepReport{};
    const Eigen::VectorXd qm = 0.5 * (q0 + q1);
    for (int s : slots_) {
      const PlanarGap g0 = pcs_.Gap(s, q0), g1 = pcs_.Gap(s, q1);
      const double zs = z0[s];
      if (g0.delta <= 0.0 && g1.delta <= 0.0) {
        if (zs != 0.0) rep.release_energy += 0.5 * law.tangential_stiffness * zs * zs;
        z1[s] = 0.0;
        continue;
      }
      ++rep.active_contacts;
      const PlanarGap gm = pcs_.Gap(s, qm);
      LocalContact lc;
      auto add_body = [&](int body, double sign) {
        const int k = lc.n;
        const Eigen::Vector2d xm(qm[3 * body], qm[3 * body + 1]);
        const Eigen::Vector2d r = gm.point - xm;
        // ∂δ/∂q: B (sign +1): (−N, −r×N); A (sign −1): (+N, +r×N). ∂s/∂q: B: (T, r×T); A: −(T, r×T).
        lc.grad_delta.segment<2>(k) = -sign * gm.normal;
        lc.grad_delta[k + 2] = -sign * Cross2(r, gm.normal);
        lc.grad_s.segment<2>(k) = sign * gm.tangent;
        lc.grad_s[k + 2] = sign * Cross2(r, gm.tangent);
        const double l = pcs_.body_length_scale(body);
        lc.weight.segment<3>(k) << 1.0, 1.0, l * l;
        for (int i = 0; i < 3; ++i) {
          lc.dof[k + i] = 3 * body + i;
          lc.dq[k + i] = q1[3 * body + i] - q0[3 * body + i];
        }
        lc.n += 3;
      };
      if (gm.body_a >= 0) add_body(gm.body_a, -1.0);
      add_body(gm.body_b, 1.0);
      const int n = lc.n;
      const Eigen::Matrix<double, 6, 1>& dq = lc.dq;
      const double d_delta = g1.delta - g0.delta;

      // Momentum-neutral Gonzalez correction: d = W (Δq − Cᵀ λ), λ = (C W Cᵀ)⁻¹ C W Δq.
      Eigen::Matrix<double, 6, 1> dvec = lc.weight.cwiseProduct(dq);
      if (gm.body_a >= 0) {
        Eigen::Matrix<double, 3, 6> c = Eigen::Matrix<double, 3, 6>::Zero();
        const int bodies[2] = {gm.body_a, gm.body_b};
        for (int j = 0; j < 2; ++j) {
          c(0, 3 * j) = 1.0;
          c(1, 3 * j + 1) = 1.0;
          c(2, 3 * j) = -qm[3 * bodies[j] + 1];
          c(2, 3 * j + 1) = qm[3 * bodies[j]];
          c(2, 3 * j + 2) = 1.0;
        }
        const Eigen::Matrix<double, 6, 6> w = lc.weight.asDiagonal();
        const Eigen::Matrix3d cwc = c * w * c.transpose();
        const Eigen::Vector3d lambda = cwc.ldlt().solve(c * w * lc.dq);
        dvec = w * (lc.dq - c.transpose() * lambda);
      }
      const double den = dq.dot(dvec);
      const double num = d_delta - lc.grad_delta.dot(dq);
      Eigen::Matrix<double, 6, 1> gbar = lc.grad_delta;
      if (den > 1e-300 && den > 1e-24 * lc.weight.cwiseProduct(dq).dot(dq) && std::isfinite(num / den))
        gbar += (num / den) * dvec;
      else if (num != 0.0)
        ++rep.correction_skipped;

      const double m_large = pcs_.slot_larger_mass(s);
      const double c_n = law.NormalDashpot(m_large), c_t = law.TangentialDashpot(m_large);
      const double f_n = PenaltyQuotient(law.normal_stiffness, g0.delta, g1.delta) + c_n * d_delta / h;
      rep.normal_dashpot_work += c_n * d_delta * d_delta / h;

      const double ds = lc.grad_s.dot(dq);
      const double kt = law.tangential_stiffness;
      const double trial = kt * (zs + 0.5 * ds) + c_t * ds / h;
      const double limit = law.friction_coefficient * std::abs(f_n);
      double f_t, g_new;
      if (std::abs(trial) <= limit) {
        f_t = trial;
        g_new = zs + ds;
        rep.tangential_dashpot_work += c_t * ds * ds / h;
        ++rep.sticking_contacts;
      } else {
        f_t = std::copysign(limit, trial);
        g_new = 2.0 * f_t / kt - zs;
        rep.slip_work += f_t * (ds - (g_new - zs));
        ++rep.slipping_contacts;
      }
      if (g1.delta <= 0.0) {  // the contact opens at the end of the step: drop the spring
        rep.release_energy += 0.5 * kt * g_new * g_new;
        g_new = 0.0;
      }
      z1[s] = g_new;
      for (int i = 0; i < n; ++i) f[lc.dof[i]] -= f_n * gbar[i] + f_t * lc.grad_s[i];
    }
  }

 private:
  const PlanarContactSystem& pcs_;
  const std::vector<int>& slots_;
};

}  // namespace

void Efda::Options::Validate() const {
  RequireAtLeast("efda_max_iterations", max_iterations, 1.0);
  if (max_iterations > 100000) throw InvalidParameter("efda_max_iterations", max_iterations, "[1, 100000]");
  RequirePositive("efda_position_tolerance", position_tolerance);
}

Efda::Efda(Options options) : options_(options) { options_.Validate(); }

IntegratorTraits Efda::traits() const {
  IntegratorTraits t;
  t.order = 2;
  t.implicit = true;
  t.conserves_energy = true;
  t.conserves_momentum = true;
  t.library = "impactlab";
  t.reference = "Bravo & Perez-Aparicio, COMPLAS XI (2011) (Seed003); reading in docs/efda.md";
  t.damping_treatment = "Seed003 eq. 17 dashpots on the step's gap increment (exact work c*Dd^2/dt)";
  return t;
}

StepResult Efda::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  StepResult result;
  const auto* pcs = dynamic_cast<const PlanarContactSystem*>(&system);
  if (pcs == nullptr)
    throw InvalidParameter("integrator", "\"efda\" on model \"" + system.name() + "\"",
                           "models implementing PlanarContactSystem (ellipse_box, ellipses_multi)");
  const int nb = pcs->num_bodies();
  const Eigen::Index n = 3 * nb;
  if (state.q.size() != n || state.v.size() != n || state.z.size() != pcs->num_contact_slots()) {
    result.status = StepStatus::kFailed;
    result.cause = StepFailureCause::kUnsupportedState;
    result.message = "efda: state sizes do not match the PlanarContactSystem layout";
    return result;
  }
  Eigen::VectorXd minv(n);
  for (int b = 0; b < nb; ++b) {
    minv[3 * b] = minv[3 * b + 1] = 1.0 / pcs->body_mass(b);
    minv[3 * b + 2] = 1.0 / pcs->body_inertia(b);
  }
  const Eigen::VectorXd q0 = state.q, v0 = state.v, z0 = state.z;
  Eigen::VectorXd q1 = q0 + h * v0 + 0.5 * h * h * minv.cwiseProduct(pcs->ExternalForce());
  Eigen::VectorXd f, z1, v1, q_next;
  EfdaStepReport rep;
  bool converged = false;
  int it = 0;
  double last_change = std::numeric_limits<double>::infinity();
  int stagnant = 0;
  while (it < options_.max_iterations) {
    ++it;
    pcs->CandidateSlots(q0, q1, slots_);
    Evaluator(*pcs, slots_).Evaluate(q0, q1, z0, h, f, z1, rep);
    v1 = v0 + h * minv.cwiseProduct(f);
    q_next = q0 + 0.5 * h * (v0 + v1);
    double change = 0.0;
    bool small = true;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double d = std::abs(q_next[i] - q1[i]);
      change = std::max(change, d);
      if (d > options_.position_tolerance * std::max(1.0, std::abs(q_next[i]))) small = false;
    }
    q1 = q_next;
    if (small) {
      converged = true;
      break;
    }
    // Round-off floor: the change stopped decreasing while already below 1e-13 (m or rad).
    if (change < 1e-13 && change >= last_change) {
      if (++stagnant >= 2) {
        converged = true;
        break;
      }
    }
    last_change = change;
  }
  stats_.newton_iterations += it;
  if (!converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = StepFailureCause::kFixedPointNonConvergence;
    result.message = "efda fixed-point iteration did not converge in " + std::to_string(it) + " iterations";
    return result;
  }
  // Final, consistent evaluation at the converged end configuration.
  pcs->CandidateSlots(q0, q1, slots_);
  Evaluator(*pcs, slots_).Evaluate(q0, q1, z0, h, f, z1, rep);
  v1 = v0 + h * minv.cwiseProduct(f);
  rep.iterations = it;
  state.q = q1;
  state.v = v1;
  state.z = z1;
  state.t += h;
  state.dissipated += rep.total();
  last_ = rep;
  result.newton_iterations = it;
  return result;
}

}  // namespace impactlab
