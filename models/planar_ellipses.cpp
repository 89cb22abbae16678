#include "models/planar_ellipses.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "core/checks.h"
#include "core/errors.h"
#include "planar/ellipse_ellipse_gap.h"
#include "planar/ellipse_wall_gap.h"
#include "planar/planar_discrete_contacts.h"
#include "system/contact_block_difference.h"

namespace impactlab {

void PlanarEllipsesConfig::Validate() const {
  if (bodies.empty()) throw InvalidParameter("bodies", 0.0, ">= 1 body");
  for (const auto& b : bodies) b.Validate();
  penalty.Validate();
  RequireNonNegative("gravity", gravity);
  const auto n = static_cast<Eigen::Index>(3 * bodies.size());
  if (q0.size() != n || v0.size() != n) throw InvalidParameter("initial_state_size", static_cast<double>(q0.size()),
                                                               "3 entries per body");
  if (!q0.allFinite() || !v0.allFinite()) throw InvalidParameter("initial_state", "non-finite", "finite numbers");
  if (tangential_law && penalty.tangential_damping_ratio != 0.0)
    throw InvalidParameter("xi_T", penalty.tangential_damping_ratio,
                           "0 with tangential_law = " + tangential_law->name() + " (the laws have no tangential dashpot)");
}

PlanarEllipses::PlanarEllipses(PlanarEllipsesConfig config)
    : config_(std::move(config)),
      slots_(static_cast<int>(config_.bodies.size()), static_cast<int>(config_.walls.size())) {
  config_.Validate();
  for (const auto& b : config_.bodies) radii_.push_back(b.bounding_radius());
}

MechanicalState PlanarEllipses::InitialState() const {
  MechanicalState s;
  s.q = config_.q0;
  s.v = config_.v0;
  s.z = Eigen::VectorXd::Zero(history_size());
  return s;
}

void PlanarEllipses::CandidateSlots(const Eigen::VectorXd& q_a, const Eigen::VectorXd& q_b,
                                    std::vector<int>& out) const {
  // Room for every slot, twice (a pair found at both configurations before deduplication): a kept list then never
  // grows inside a step.
  out.reserve(2 * static_cast<size_t>(slots_.num_slots()));
  slots_.Candidates(radii_, config_.walls, q_a, q_b, out);
}

PlanarGap PlanarEllipses::Gap(int slot, const Eigen::VectorXd& q) const {
  const SlotParticipants& p = slots_.participants(slot);
  const auto x = [&](int i) { return Eigen::Vector2d(q[3 * i], q[3 * i + 1]); };
  const auto& eb = config_.bodies[static_cast<size_t>(p.body_b)];
  if (p.wall >= 0)
    return EllipseWallGap(eb, p.body_b, x(p.body_b), q[3 * p.body_b + 2], config_.walls[static_cast<size_t>(p.wall)]);
  const auto& ea = config_.bodies[static_cast<size_t>(p.body_a)];
  return EllipseEllipseGap(ea, p.body_a, x(p.body_a), q[3 * p.body_a + 2], eb, p.body_b, x(p.body_b),
                           q[3 * p.body_b + 2]);
}

double PlanarEllipses::slot_larger_mass(int slot) const {
  const SlotParticipants& p = slots_.participants(slot);
  const double mb = body_mass(p.body_b);
  return p.body_a >= 0 ? std::max(mb, body_mass(p.body_a)) : mb;
}

Eigen::VectorXd PlanarEllipses::ExternalForce() const {
  Eigen::VectorXd f;
  WriteExternalForce(f);
  return f;
}

void PlanarEllipses::WriteExternalForce(Eigen::VectorXd& f) const {
  f.setZero(3 * num_bodies());
  for (int i = 0; i < num_bodies(); ++i) f[3 * i + 1] = -body_mass(i) * config_.gravity;
}

void PlanarEllipses::ContactVelocity(const PlanarGap& g, const MechanicalState& s, double& v_n, double& v_t) const {
  auto point_velocity = [&](int i) -> Eigen::Vector2d {
    const Eigen::Vector2d r = g.point - Eigen::Vector2d(s.q[3 * i], s.q[3 * i + 1]);
    return Eigen::Vector2d(s.v[3 * i], s.v[3 * i + 1]) + s.v[3 * i + 2] * Perp(r);
  };
  Eigen::Vector2d u = point_velocity(g.body_b);
  if (g.body_a >= 0) u -= point_velocity(g.body_a);
  v_n = g.normal.dot(u);
  v_t = g.tangent.dot(u);
}

PlanarEllipses::SlotForce PlanarEllipses::ForceOf(int slot, const PlanarGap& g, const MechanicalState& s) const {
  SlotForce out;
  double v_n, v_t;
  ContactVelocity(g, s, v_n, v_t);
  out.delta_dot = -v_n;
  out.s_dot = v_t;
  const PlanarPenalty& law = config_.penalty;
  const double m = slot_larger_mass(slot);
  out.f_n = law.normal_stiffness * g.delta + law.NormalDashpot(m) * out.delta_dot;
  if (const PlanarTangentialLaw* t = tangential_law()) {  // the law's lagged spring force on B along +T
    out.f_t = -t->SpringForce(slot, g.delta, law.normal_stiffness, s.z);
    return out;
  }
  const double trial = law.tangential_stiffness * s.z[slot] + law.TangentialDashpot(m) * v_t;
  const double limit = law.friction_coefficient * std::abs(out.f_n);
  // A spring that UpdateHistory projected onto the cone holds exactly ±g_max of the same F_N (the same expression):
  // it slips while ṡ pushes it outward and sticks while ṡ unloads it. Comparing K_T g_max with μ|F_N| would decide
  // this tie by the rounding of K_T (μ|F_N|/K_T), and the slip power of DissipationPower would come and go
  // between evaluations (a Runge–Kutta error estimate then sees a discontinuous D and shrinks the step to ~1e-12 s).
  const double g_max = law.friction_coefficient * std::abs(out.f_n) / law.tangential_stiffness;
  if (g_max > 0.0 && std::abs(s.z[slot]) == g_max)
    out.saturated = s.z[slot] * v_t > 0.0;
  else
    out.saturated = std::abs(trial) >= limit;
  out.f_t = out.saturated ? std::copysign(limit, trial) : trial;
  return out;
}

void PlanarEllipses::Acceleration(const MechanicalState& s, Eigen::Ref<Eigen::VectorXd> v_dot) const {
  // Per-thread storage (the model is const and may be shared between threads): no allocation once sized.
  thread_local Eigen::VectorXd f;
  thread_local std::vector<int> cand;
  WriteExternalForce(f);
  CandidateSlots(s.q, s.q, cand);
  for (int slot : cand) {
    const PlanarGap g = Gap(slot, s.q);
    if (g.delta <= 0.0) continue;
    const SlotForce sf = ForceOf(slot, g, s);
    auto apply = [&](int i, double sign) {
      const Eigen::Vector2d r = g.point - Eigen::Vector2d(s.q[3 * i], s.q[3 * i + 1]);
      const Eigen::Vector2d force = sign * (sf.f_n * g.normal - sf.f_t * g.tangent);
      f[3 * i] += force.x();
      f[3 * i + 1] += force.y();
      f[3 * i + 2] += Cross2(r, force);
    };
    apply(g.body_b, 1.0);
    if (g.body_a >= 0) apply(g.body_a, -1.0);
  }
  for (int i = 0; i < num_bodies(); ++i) {
    v_dot[3 * i] = f[3 * i] / body_mass(i);
    v_dot[3 * i + 1] = f[3 * i + 1] / body_mass(i);
    v_dot[3 * i + 2] = f[3 * i + 2] / body_inertia(i);
  }
}

double PlanarEllipses::TangentialIncrement(const PlanarGap& gm, const Eigen::VectorXd& qm, const Eigen::VectorXd& q0,
                                           const Eigen::VectorXd& q1) const {
  auto disp = [&](int i) {
    const Eigen::Vector2d r = gm.point - Eigen::Vector2d(qm[3 * i], qm[3 * i + 1]);
    const Eigen::Vector2d dx(q1[3 * i] - q0[3 * i], q1[3 * i + 1] - q0[3 * i + 1]);
    return gm.tangent.dot(dx) + Cross2(r, gm.tangent) * (q1[3 * i + 2] - q0[3 * i + 2]);
  };
  double ds = disp(gm.body_b);
  if (gm.body_a >= 0) ds -= disp(gm.body_a);
  return ds;
}

void PlanarEllipses::UpdateLawHistory(const PlanarTangentialLaw& t, const MechanicalState& before,
                                      MechanicalState& after) const {
  thread_local Eigen::VectorXd qm, z;
  thread_local std::vector<int> cand;
  qm = 0.5 * (before.q + after.q);
  CandidateSlots(before.q, after.q, cand);
  z = before.z;
  const double k_n = config_.penalty.normal_stiffness;
  double friction = 0.0, generated = 0.0;
  for (int slot : cand) {
    const PlanarGap g0 = Gap(slot, before.q), g1 = Gap(slot, after.q);
    if (g0.delta <= 0.0 && g1.delta <= 0.0) {
      friction += t.Step(slot, g0.delta, g1.delta, 0.0, 0.0, k_n, before.z, z).release_energy;
      continue;
    }
    const PlanarGap gm = Gap(slot, qm);
    const PlanarTangentialStep st =
        t.Step(slot, g0.delta, g1.delta, TangentialIncrement(gm, qm, before.q, after.q), gm.effective_radius, k_n,
               before.z, z);
    friction += st.friction_work + st.release_energy;
    generated += st.generated_work;
  }
  z[t.FrictionWorkIndex(slots_.num_slots())] += friction;
  z[t.GeneratedWorkIndex(slots_.num_slots())] += generated;
  after.z = z;
}

void PlanarEllipses::UpdateHistory(const MechanicalState& before, MechanicalState& after) const {
  if (after.z.size() != history_size()) return;
  if (const PlanarTangentialLaw* t = tangential_law()) return UpdateLawHistory(*t, before, after);
  thread_local Eigen::VectorXd qm, z;
  thread_local std::vector<int> cand;
  qm = 0.5 * (before.q + after.q);
  CandidateSlots(before.q, after.q, cand);
  z.setZero(slots_.num_slots());
  const PlanarPenalty& law = config_.penalty;
  for (int slot : cand) {
    const PlanarGap g1 = Gap(slot, after.q);
    if (g1.delta <= 0.0) continue;
    const PlanarGap gm = Gap(slot, qm);
    double g = before.z[slot] + TangentialIncrement(gm, qm, before.q, after.q);
    double v_n, v_t;
    ContactVelocity(g1, after, v_n, v_t);
    const double f_n = law.normal_stiffness * g1.delta - law.NormalDashpot(slot_larger_mass(slot)) * v_n;
    const double gmax = law.friction_coefficient * std::abs(f_n) / law.tangential_stiffness;
    z[slot] = std::clamp(g, -gmax, gmax);
  }
  after.z = z;
}

double PlanarEllipses::KineticEnergy(const MechanicalState& s) const {
  double k = 0.0;
  for (int i = 0; i < num_bodies(); ++i)
    k += 0.5 * body_mass(i) * (s.v[3 * i] * s.v[3 * i] + s.v[3 * i + 1] * s.v[3 * i + 1]) +
         0.5 * body_inertia(i) * s.v[3 * i + 2] * s.v[3 * i + 2];
  return k;
}

double PlanarEllipses::GravityEnergy(const MechanicalState& s) const {
  double v = 0.0;
  for (int i = 0; i < num_bodies(); ++i) v += body_mass(i) * config_.gravity * s.q[3 * i + 1];
  return v;
}

double PlanarEllipses::NormalElasticEnergy(const MechanicalState& s) const {
  double v = 0.0;
  thread_local std::vector<int> cand;  // per-thread storage: no allocation once sized
  CandidateSlots(s.q, s.q, cand);
  for (int slot : cand) {
    const double d = Gap(slot, s.q).delta;
    if (d > 0.0) v += 0.5 * config_.penalty.normal_stiffness * d * d;
  }
  return v;
}

double PlanarEllipses::LawTangentialEnergy(const PlanarTangentialLaw& t, const MechanicalState& s) const {
  double v = 0.0;
  thread_local std::vector<int> cand;  // per-thread storage: no allocation once sized
  CandidateSlots(s.q, s.q, cand);
  for (int slot : cand) v += t.StoredEnergy(slot, Gap(slot, s.q).delta, s.z);
  return v;
}

EnergyTerms PlanarEllipses::EnergyBooks(const MechanicalState& s) const {
  const PlanarTangentialLaw* t = tangential_law();
  if (!t || s.z.size() != history_size()) return MechanicalSystem::EnergyBooks(s);
  EnergyTerms e;
  e.kinetic = KineticEnergy(s);
  e.stored = {{"normal_elastic", NormalElasticEnergy(s)},
              {"tangential_elastic", LawTangentialEnergy(*t, s)},
              {"gravity", GravityEnergy(s)}};
  e.damping_work = s.dissipated;
  e.friction_work = s.z[t->FrictionWorkIndex(slots_.num_slots())];
  e.generated_work = s.z[t->GeneratedWorkIndex(slots_.num_slots())];
  return e;
}

double PlanarEllipses::PotentialEnergy(const MechanicalState& s) const {
  if (const PlanarTangentialLaw* t = tangential_law())
    return GravityEnergy(s) + NormalElasticEnergy(s) + (s.z.size() == history_size() ? LawTangentialEnergy(*t, s) : 0.0);
  double v = 0.0;
  for (int i = 0; i < num_bodies(); ++i) v += body_mass(i) * config_.gravity * s.q[3 * i + 1];
  thread_local std::vector<int> cand;  // per-thread storage: no allocation once sized
  CandidateSlots(s.q, s.q, cand);
  const PlanarPenalty& law = config_.penalty;
  for (int slot : cand) {
    const double d = Gap(slot, s.q).delta;
    if (d > 0.0) v += 0.5 * law.normal_stiffness * d * d;
  }
  if (s.z.size() == slots_.num_slots()) v += 0.5 * law.tangential_stiffness * s.z.squaredNorm();
  return v;
}

double PlanarEllipses::DissipationPower(const MechanicalState& s) const {
  double p = 0.0;
  thread_local std::vector<int> cand;  // per-thread storage: no allocation once sized
  CandidateSlots(s.q, s.q, cand);
  const PlanarPenalty& law = config_.penalty;
  for (int slot : cand) {
    const PlanarGap g = Gap(slot, s.q);
    if (g.delta <= 0.0) continue;
    const SlotForce sf = ForceOf(slot, g, s);
    const double m = slot_larger_mass(slot);
    p += law.NormalDashpot(m) * sf.delta_dot * sf.delta_dot;
    if (tangential_law()) continue;  // the law's friction work is booked in z by UpdateHistory
    if (sf.saturated) p += std::abs(sf.f_t * sf.s_dot);
    else p += law.TangentialDashpot(m) * sf.s_dot * sf.s_dot;
  }
  return p;
}

void PlanarEllipses::ContactOverlaps(const MechanicalState& s, std::span<double> overlap,
                                     std::span<double> overlap_rate) const {
  thread_local std::vector<int> cand;  // per-thread storage: no allocation once sized
  CandidateSlots(s.q, s.q, cand);
  // Slots outside the broad phase are certainly apart: a negative stand-in (bounding-circle clearance, or
  // −1 m), so only true sign changes of the exact gap are located.
  for (int slot = 0; slot < slots_.num_slots(); ++slot) {
    overlap[static_cast<size_t>(slot)] = -1.0;
    overlap_rate[static_cast<size_t>(slot)] = 0.0;
  }
  for (int slot : cand) {
    const ContactReading r = CandidateReading(slot, s);
    overlap[static_cast<size_t>(slot)] = r.overlap;
    overlap_rate[static_cast<size_t>(slot)] = r.rate;
  }
}

MechanicalSystem::ContactReading PlanarEllipses::CandidateReading(int slot, const MechanicalState& s) const {
  const PlanarGap g = Gap(slot, s.q);
  double v_n, v_t;
  ContactVelocity(g, s, v_n, v_t);
  return {slot, g.delta, -v_n};
}

MechanicalSystem::ContactReading PlanarEllipses::ContactOverlapOf(const MechanicalState& s, int contact) const {
  if (contact < 0 || contact >= num_contacts())
    throw InvalidParameter("contact", contact, "[0, " + std::to_string(num_contacts()) + ")");
  if (!slots_.IsCandidate(contact, radii_, config_.walls, s.q)) return {contact, -1.0, 0.0};  // ContactOverlaps' stand-in
  return CandidateReading(contact, s);
}

void PlanarEllipses::TouchingContacts(const MechanicalState& s, std::vector<ContactReading>& out) const {
  out.clear();
  thread_local std::vector<int> cand;  // per-thread storage: no allocation once sized
  CandidateSlots(s.q, s.q, cand);
  for (int slot : cand) {
    const ContactReading r = CandidateReading(slot, s);
    if (r.overlap >= 0.0) out.push_back(r);
  }
}

std::optional<Eigen::Vector3d> PlanarEllipses::LinearMomentum(const MechanicalState& s) const {
  if (!config_.walls.empty() || config_.gravity != 0.0) return std::nullopt;
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  for (int i = 0; i < num_bodies(); ++i) p.head<2>() += body_mass(i) * Eigen::Vector2d(s.v[3 * i], s.v[3 * i + 1]);
  return p;
}

std::optional<double> PlanarEllipses::LinearMomentumScale(const MechanicalState& s) const {
  if (!LinearMomentum(s)) return std::nullopt;
  double sum = 0.0;
  for (int i = 0; i < num_bodies(); ++i) sum += body_mass(i) * Eigen::Vector2d(s.v[3 * i], s.v[3 * i + 1]).norm();
  return sum;
}

std::optional<double> PlanarEllipses::AngularMomentumScale(const MechanicalState& s) const {
  if (!AngularMomentum(s)) return std::nullopt;
  double sum = 0.0;
  for (int i = 0; i < num_bodies(); ++i)
    sum += body_mass(i) * Eigen::Vector2d(s.q[3 * i], s.q[3 * i + 1]).norm() *
               Eigen::Vector2d(s.v[3 * i], s.v[3 * i + 1]).norm() +
           body_inertia(i) * std::abs(s.v[3 * i + 2]);
  return sum;
}

std::optional<Eigen::Vector3d> PlanarEllipses::AngularMomentum(const MechanicalState& s) const {
  if (!config_.walls.empty() || config_.gravity != 0.0) return std::nullopt;
  double l = 0.0;
  for (int i = 0; i < num_bodies(); ++i)
    l += body_mass(i) * Cross2(Eigen::Vector2d(s.q[3 * i], s.q[3 * i + 1]), Eigen::Vector2d(s.v[3 * i], s.v[3 * i + 1])) +
         body_inertia(i) * s.v[3 * i + 2];
  return Eigen::Vector3d(0.0, 0.0, l);
}

}  // namespace impactlab

namespace impactlab {

std::optional<double> PlanarEllipses::CriticalTimeStep(const MechanicalState& s) const {
  (void)s;
  double m_low = INFINITY;
  for (const auto& b : config_.bodies) {
    const double r = b.bounding_radius(), inertia = b.inertia();
    m_low = std::min(m_low, b.mass * inertia / (inertia + b.mass * r * r));
  }
  if (config_.bodies.size() > 1) m_low *= 0.5;
  const PlanarPenalty& pen = config_.penalty;
  const double k = tangential_law() ? pen.normal_stiffness : std::max(pen.normal_stiffness, pen.tangential_stiffness);
  const double xi = pen.normal_damping_ratio;
  if (!(k > 0.0 && m_low > 0.0 && std::isfinite(m_low))) return std::nullopt;
  return 2.0 * std::sqrt(m_low / k) * (std::sqrt(1.0 + xi * xi) - xi);
}

Eigen::VectorXd PlanarEllipses::DiscreteMassDiagonal() const {
  Eigen::VectorXd m;
  WriteDiscreteMassDiagonal(m);
  return m;
}

void PlanarEllipses::WriteDiscreteMassDiagonal(Eigen::VectorXd& m) const {
  if (m.size() != 3 * num_bodies()) m.resize(3 * num_bodies());
  for (int b = 0; b < num_bodies(); ++b) m.segment<3>(3 * b) << body_mass(b), body_mass(b), body_inertia(b);
}

void PlanarEllipses::EvaluateDiscreteStep(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                          DiscreteGradientForm form, DiscreteContactStep& out) const {
  // Per-thread storage (the model is const and may be shared between threads): no allocation once sized.
  thread_local std::vector<int> candidates;
  thread_local Eigen::VectorXd f, f_ext;
  CandidateSlots(before.q, q1, candidates);
  PlanarStepReport report;
  EvaluatePlanarDiscreteContacts(*this, candidates, before.q, q1, before.z, h, form, f, out.z_next, report);
  out.force = -f;
  WriteExternalForce(f_ext);
  out.scale = f.lpNorm<Eigen::Infinity>() + f_ext.lpNorm<Eigen::Infinity>();
  out.damping_work = report.normal_dashpot_work + report.tangential_dashpot_work;
  out.friction_work = report.slip_work + report.release_energy;
  out.generated_work = report.generated_work;
  out.dissipated = report.state_dissipated();  // all of it for the spring K_T; the dashpots with a law (W_f in z)
}

namespace {
template <int M>
void SlotBlock(const PlanarEllipses& model, int slot, const MechanicalState& before, const Eigen::VectorXd& q1,
               double h, DiscreteGradientForm form, double motion, const int* coords, Eigen::VectorXd& q1p,
               Eigen::VectorXd& qmp, Eigen::VectorXd& z1, double* values) {
  Eigen::Matrix<double, M, 1> x;
  for (int i = 0; i < M; ++i) x[i] = q1[coords[i]];
  PlanarStepReport report;  // the probes' books are not the step's
  PlanarSlotForce out;
  // F̄ = −f on the slot's coordinates (the scheme's step force), as a function of those coordinates of q₁ alone.
  auto force = [&](const Eigen::Matrix<double, M, 1>& at) {
    for (int i = 0; i < M; ++i) {
      q1p[coords[i]] = at[i];
      qmp[coords[i]] = 0.5 * (before.q[coords[i]] + at[i]);
    }
    PlanarSlotStep(model, slot, before.q, q1p, qmp, before.z, h, form, z1, report, out);
    Eigen::Matrix<double, M, 1> f = Eigen::Matrix<double, M, 1>::Zero();  // zero while the slot is apart
    for (int i = 0; i < out.n; ++i)
      for (int j = 0; j < M; ++j)
        if (out.dof[i] == coords[j]) f[j] = -out.force[i];
    return f;
  };
  Eigen::Matrix<double, M, M> block;
  ContactBlockDifference<M>(x, motion, force, block);
  Eigen::Map<Eigen::Matrix<double, M, M>> out_block(values);  // column-major, as ContactBlocks stores it
  out_block = block;
  for (int i = 0; i < M; ++i) {  // q1p and qmp back to q₁ and the midpoint
    q1p[coords[i]] = q1[coords[i]];
    qmp[coords[i]] = 0.5 * (before.q[coords[i]] + q1[coords[i]]);
  }
}
}  // namespace

void PlanarEllipses::DiscreteStepJacobianBlocks(const MechanicalState& before, const Eigen::VectorXd& q1, double h,
                                                DiscreteGradientForm form, double motion,
                                                ContactBlocks& blocks) const {
  // Per-thread storage (the model is const and may be shared between threads): no allocation once sized.
  thread_local std::vector<int> candidates;
  thread_local Eigen::VectorXd q1p, qmp, z1;
  CandidateSlots(before.q, q1, candidates);
  blocks.Clear();
  for (int s : candidates) {
    const SlotParticipants& p = slots_.participants(s);
    int coords[6];
    int k = 0;
    for (int body : {p.body_a, p.body_b})
      if (body >= 0)
        for (int i = 0; i < 3; ++i) coords[k++] = 3 * body + i;
    blocks.AddBlock(std::span<const int>(coords, static_cast<std::size_t>(k)));
  }
  blocks.SizeValues();
  q1p = q1;
  qmp = 0.5 * (before.q + q1);
  z1 = before.z;  // each probe writes the slot's own entries only
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const int* coords = blocks.coordinates.data() + blocks.start[b];
    const int s = candidates[b];
    if (blocks.start[b + 1] - blocks.start[b] == 6)
      SlotBlock<6>(*this, s, before, q1, h, form, motion, coords, q1p, qmp, z1, blocks.block_values(b));
    else
      SlotBlock<3>(*this, s, before, q1, h, form, motion, coords, q1p, qmp, z1, blocks.block_values(b));
  }
}

}  // namespace impactlab
