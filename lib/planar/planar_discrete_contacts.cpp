#include "planar/planar_discrete_contacts.h"

#include <Eigen/Dense>
#include <cmath>

#include "planar/planar_tangential_law.h"
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

}  // namespace

void PlanarSlotStep(const PlanarContactSystem& pcs, int s, const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                    const Eigen::VectorXd& qm, const Eigen::VectorXd& z0, double h, DiscreteGradientForm form,
                    Eigen::VectorXd& z1, PlanarStepReport& rep, PlanarSlotForce& out) {
  const PlanarPenalty& law = pcs.penalty();
  const PlanarTangentialLaw* tangential = pcs.tangential_law();
  out.n = 0;
  const PlanarGap g0 = pcs.Gap(s, q0), g1 = pcs.Gap(s, q1);
  if (tangential && g0.delta <= 0.0 && g1.delta <= 0.0) {
    rep.release_energy +=
        tangential->Step(s, g0.delta, g1.delta, 0.0, 0.0, law.normal_stiffness, z0, z1).release_energy;
    return;
  }
  const double zs = tangential ? 0.0 : z0[s];
  if (g0.delta <= 0.0 && g1.delta <= 0.0) {
    if (zs != 0.0) rep.release_energy += 0.5 * law.tangential_stiffness * zs * zs;
    z1[s] = 0.0;
    return;
  }
  ++rep.active_contacts;
  const PlanarGap gm = pcs.Gap(s, qm);
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
    const double l = pcs.body_length_scale(body);
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
  const double m_large = pcs.slot_larger_mass(s);
  const double c_n = law.NormalDashpot(m_large), c_t = law.TangentialDashpot(m_large);
  Eigen::Matrix<double, 6, 1> gbar = lc.grad_delta;
  double f_n = 0.0;
  if (form == DiscreteGradientForm::kMidpoint) {
    // Implicit midpoint rule: the penalty force and dashpot of the midpoint configuration.
    const double rate = lc.grad_delta.dot(dq) / h;
    f_n = law.normal_stiffness * std::max(gm.delta, 0.0) + c_n * rate;
    rep.normal_dashpot_work += c_n * rate * rate * h;
  } else {
    const double den = dq.dot(dvec);
    const double num = d_delta - lc.grad_delta.dot(dq);
    if (den > 1e-300 && den > 1e-24 * lc.weight.cwiseProduct(dq).dot(dq) && std::isfinite(num / den))
      gbar += (num / den) * dvec;
    else if (num != 0.0)
      ++rep.correction_skipped;
    f_n = PenaltyQuotient(law.normal_stiffness, g0.delta, g1.delta) + c_n * d_delta / h;
    rep.normal_dashpot_work += c_n * d_delta * d_delta / h;
  }
  out.n = n;
  for (int i = 0; i < n; ++i) out.dof[i] = lc.dof[i];

  const double ds = lc.grad_s.dot(dq);
  if (tangential) {
    // The shared tangential law (planar_tangential_law.h): f̄_t on B along +T, i.e. along +G_T.
    const PlanarTangentialStep t =
        tangential->Step(s, g0.delta, g1.delta, ds, gm.effective_radius, law.normal_stiffness, z0, z1);
    rep.slip_work += t.friction_work;
    rep.release_energy += t.release_energy;
    rep.generated_work += t.generated_work;
    if (t.active) ++(t.sliding ? rep.slipping_contacts : rep.sticking_contacts);
    for (int i = 0; i < n; ++i) out.force[i] = t.force * lc.grad_s[i] - f_n * gbar[i];
    return;
  }
  // The part of the step spent in contact (δ linear over the step): the spring starts at the located onset
  // and stops at the located opening, not at the step's ends. Loading it with the whole step's Δs at onset
  // left an O(h) error in g for the rest of the contact (first-order convergence with sticking friction).
  const double phi = (g0.delta > 0.0 && g1.delta > 0.0) ? 1.0
                     : g0.delta > 0.0                    ? g0.delta / (g0.delta - g1.delta)
                                                         : g1.delta / (g1.delta - g0.delta);
  const double dg = phi * ds;  // spring travel while in contact
  const double kt = law.tangential_stiffness;
  // Stick or slip is decided at the step's END, as a return mapping: the trial end force K_T(g₀ + φΔs) (+
  // dashpot) against the cone of the end configuration; in slip the spring is returned onto that cone. The
  // force is the same trapezoidal form either way, F_T = φ[K_T(g₀ + g₁)/2 + c_T Δs/h], so it is continuous
  // across the stick/slip boundary (the fixed point and Newton converge there), and in sustained slip
  // (K_T g₀, K_T g₁ on the cones) it is μ times the average normal force (Seed003 eq. 7). Deciding instead
  // with the step-average force against the average cone called a step "stick" whenever ½K_TΔs < μΔF_N, in
  // every other step of a slip whose cone grows fast: stick/slip chatter and first-order convergence.
  const double f_n_end = law.normal_stiffness * std::max(g1.delta, 0.0) + (g1.delta > 0.0 ? c_n * d_delta / h : 0.0);
  const double limit_end = law.friction_coefficient * std::abs(f_n_end);
  const double dashpot = phi * c_t * ds / h;
  const double trial_end = kt * (zs + dg) + dashpot;
  const bool slip = std::abs(trial_end) > limit_end;
  const double g_new = slip ? (std::copysign(limit_end, trial_end) - dashpot) / kt : zs + dg;
  const double f_t = phi * kt * 0.5 * (zs + g_new) + dashpot;
  rep.tangential_dashpot_work += dashpot * ds;
  if (slip) {  // what the spring and dashpot do not take: F_T Δs − ΔV_T − dashpot work
    rep.slip_work += f_t * ds - 0.5 * kt * (g_new * g_new - zs * zs) - dashpot * ds;
    ++rep.slipping_contacts;
  } else {
    ++rep.sticking_contacts;
  }
  // A contact that opens at the end of the step drops its spring (the end cone is 0, so it is already).
  if (g1.delta <= 0.0) rep.release_energy += 0.5 * kt * g_new * g_new;
  z1[s] = g1.delta > 0.0 ? g_new : 0.0;
  // f −= f_n ḡ + f_t G_T, as f += −(…): the same rounding.
  for (int i = 0; i < n; ++i) out.force[i] = -(f_n * gbar[i] + f_t * lc.grad_s[i]);
}

void EvaluatePlanarDiscreteContacts(const PlanarContactSystem& pcs, const std::vector<int>& slots,
                                    const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, const Eigen::VectorXd& z0,
                                    double h, DiscreteGradientForm form, Eigen::VectorXd& f, Eigen::VectorXd& z1,
                                    PlanarStepReport& rep) {
  const PlanarTangentialLaw* tangential = pcs.tangential_law();
  pcs.WriteExternalForce(f);
  z1 = z0;
  rep = PlanarStepReport{};
  rep.friction_in_history = tangential != nullptr;
  thread_local Eigen::VectorXd qm;  // per-thread storage: no allocation once sized
  qm = 0.5 * (q0 + q1);
  PlanarSlotForce slot;
  for (int s : slots) {
    PlanarSlotStep(pcs, s, q0, q1, qm, z0, h, form, z1, rep, slot);
    for (int i = 0; i < slot.n; ++i) f[slot.dof[i]] += slot.force[i];
  }
  if (tangential) {
    const int num_slots = pcs.num_contact_slots();
    z1[tangential->FrictionWorkIndex(num_slots)] += rep.slip_work + rep.release_energy;
    z1[tangential->GeneratedWorkIndex(num_slots)] += rep.generated_work;
  }
}

}  // namespace impactlab
