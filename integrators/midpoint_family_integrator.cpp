#include "integrators/midpoint_family_integrator.h"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "integrators/contact_term_discrete_force.h"
#include "integrators/newton_iteration.h"
#include "state/same_bits.h"
#include "system/contact_block_difference.h"
#include "system/discrete_contact_jacobian.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

const ConstantMassSystem& RequireConstantMassSystem(const MechanicalSystem& system, const std::string& integrator) {
  const auto* cms = dynamic_cast<const ConstantMassSystem*>(&system);
  if (!cms)
    throw InvalidParameter("integrator", "\"" + integrator + "\"",
                           "a model with a constant diagonal mass matrix (ConstantMassSystem or "
                           "DiscreteContactSystem); model \"" + system.name() + "\" is neither");
  return *cms;
}

MidpointFamilyIntegrator::MidpointFamilyIntegrator(ImplicitSchemeOptions options) : options_(options) {
  options_.Validate();
}

namespace {

// J += diag(2m/h²) on the generic Jacobian: the dense form (NewtonJacobian::small) with AddDiagonal's operations
// (+ 0.0 off the diagonal), else in place on the sparse Jacobian's pattern (the values of `J += D`).
void AddInertia(NewtonJacobian& j, const Eigen::VectorXd& inertia_diagonal) {
  const Eigen::Index n = inertia_diagonal.size();
  if (j.small.size() > 0) {
    for (Eigen::Index c = 0; c < n; ++c)
      for (Eigen::Index i = 0; i < n; ++i) j.small(i, c) = j.small(i, c) + (i == c ? inertia_diagonal[c] : 0.0);
  } else {
    if (j.matrix.rows() != n || j.matrix.cols() != n) j.matrix.resize(n, n);
    j.matrix.makeCompressed();
    AddDiagonal(j.matrix, inertia_diagonal);
  }
}
// The same on the small-system path's dense N × N Jacobian (the statements of the dense form above).
template <int N>
void AddInertia(Eigen::Matrix<double, N, N>& j, const Eigen::Matrix<double, N, 1>& inertia_diagonal) {
  for (Eigen::Index c = 0; c < N; ++c)
    for (Eigen::Index i = 0; i < N; ++i) j(i, c) = j(i, c) + (i == c ? inertia_diagonal[c] : 0.0);
}

// R(q₁) = (2M/h²)(Δq − h v_n) + F̄(q_n, q₁) − f_ext, J = 2M/h² + ∂F̄/∂q₁ (MidpointFamilyIntegrator's header), over
// the storage `Vector` of the generic path (Eigen::VectorXd, the integrator's StepWorkspace) or of the small-system
// path (Eigen::Matrix<double, N, 1>); `force(q1, eval, jacobian)` writes F̄ (and ∂F̄/∂q₁) into `eval`.
template <class Force, class Vector, class Evaluation>
class MidpointResidualTerms {
 public:
  MidpointResidualTerms(Force force, const Vector& mass, const Vector& q0, const Vector& v0, const Vector& f_ext,
                        double h, const Vector& inertia_diagonal, Evaluation& eval, Vector& evaluated_at)
      : force_(force), m_(mass), q0_(q0), v0_(v0), f_ext_(f_ext), h_(h), inertia_diagonal_(inertia_diagonal),
        eval_(eval), evaluated_at_(evaluated_at),
        momentum_scale_((2.0 / h) * mass.cwiseProduct(v0).template lpNorm<Eigen::Infinity>()),
        f_ext_scale_(f_ext.template lpNorm<Eigen::Infinity>()) {}
  template <class Jacobian>
  double Evaluate(const Vector& q1, Vector& r, Jacobian* j) {
    force_(q1, eval_, j);
    evaluated_at_ = q1;  // eval_ is F̄ at this q₁ (DoStep reuses it when Newton returns this very iterate)
    evaluated_ = true;
    // R = (2/h²) M(Δq − h v_n) + F̄ − f_ext and the two maxima of the residual scale in one pass: per entry the
    // operations (and their order) of the Eigen expressions they replace, and ‖MΔq‖∞, ‖M q₁‖∞ (a maximum of finite
    // numbers is exact in any order), without their set-up per call, which dominated the 1–3 unknown systems
    // (docs/performance.md). With a non-finite entry the maxima are Eigen's, as before.
    const Eigen::Index n = q1.size();
    if (r.size() != n) r.resize(n);
    const double two_over_h2 = 2.0 / (h_ * h_);
    double dq_max = 0.0, q1_max = 0.0;
    bool finite = true;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double dq = q1[i] - q0_[i];
      r[i] = two_over_h2 * (m_[i] * (dq - h_ * v0_[i])) + eval_.force[i] - f_ext_[i];
      const double a = std::abs(m_[i] * dq), b = std::abs(m_[i] * q1[i]);
      finite = finite && std::isfinite(a) && std::isfinite(b);
      dq_max = a > dq_max ? a : dq_max;
      q1_max = b > q1_max ? b : q1_max;
    }
    if (!finite) {
      dq_max = m_.cwiseProduct(q1 - q0_).template lpNorm<Eigen::Infinity>();
      q1_max = m_.cwiseProduct(q1).template lpNorm<Eigen::Infinity>();
    }
    if (j) AddInertia(*j, inertia_diagonal_);
    // The inertia term's round-off floor is set by the representation of q₁ itself (ulp(q₁) · 2m/h²),
    // not by |Δq|: include ‖m q₁‖ so that Newton stops at the floor instead of cycling below it.
    // The step-start terms (2/h)‖M v_n‖∞ and ‖f_ext‖∞ are computed once per step (constructor), summed in the
    // same order as before.
    const double s = two_over_h2 * (dq_max + q1_max) + momentum_scale_ + eval_.scale + f_ext_scale_;
    return s;
  }
  /// True when the last evaluation of this step was made at exactly `q1` (bit for bit): `eval` is then F̄(q_n, q1).
  bool LastEvaluatedAt(const Vector& q1) const { return evaluated_ && SameBits(evaluated_at_, q1); }

 private:
  Force force_;
  const Vector &m_, &q0_, &v0_, &f_ext_;
  double h_;
  const Vector& inertia_diagonal_;
  Evaluation& eval_;
  Vector& evaluated_at_;
  bool evaluated_ = false;
  double momentum_scale_, f_ext_scale_;  // the residual scale's step-start part (see Evaluate)
};

// The generic path's NewtonSystem.
template <class Force>
class MidpointResidual final : public NewtonSystem {
 public:
  template <class... Args>
  explicit MidpointResidual(Args&&... args) : terms_(std::forward<Args>(args)...) {}
  double Evaluate(const Eigen::VectorXd& q1, Eigen::VectorXd& r, NewtonJacobian* j) override {
    return terms_.Evaluate(q1, r, j);
  }
  bool LastEvaluatedAt(const Eigen::VectorXd& q1) const { return terms_.LastEvaluatedAt(q1); }

 private:
  MidpointResidualTerms<Force, Eigen::VectorXd, DiscreteForceEvaluation> terms_;
};

// Above this many unknowns a model offering DiscreteContactJacobian gets the sparse block Jacobian; at or below it
// the dense forward difference is kept (the single-contact sphere models: their iterates stay bitwise those of
// before, and the dense LU of newton_solver.h takes that size anyway).
constexpr Eigen::Index kDenseContactJacobianLimit = 24;

// R(q₁) = (2M/h²)(Δq − h v_n) + F̄(state_n, q₁) for a DiscreteContactSystem; J = 2M/h² + ∂F̄/∂q₁ from the model's
// contact blocks (system/discrete_contact_jacobian.h), else by forward differences of R column by column.
class ContactStepResidual final : public NewtonSystem {
 public:
  ContactStepResidual(const DiscreteContactSystem& contacts, const MechanicalState& before, double h,
                      DiscreteGradientForm form, long& evaluations, ContactStepWorkspace& work)
      : contacts_(contacts), blocks_(dynamic_cast<const DiscreteContactJacobian*>(&contacts)), before_(before),
        m_(work.mass), h_(h), form_(form), evaluations_(evaluations), work_(work) {
    contacts.WriteDiscreteMassDiagonal(work.mass);
  }
  double Evaluate(const Eigen::VectorXd& q1, Eigen::VectorXd& r, NewtonJacobian* j) override {
    const double s = Residual(q1, r, work_.eval);
    if (j) {
      const double motion = (q1 - before_.q).lpNorm<Eigen::Infinity>() + h_ * before_.v.lpNorm<Eigen::Infinity>();
      if (uses_blocks(q1.size()))
        BlockJacobian(q1, motion, *j);
      else
        DenseJacobian(q1, r, motion, *j);
      j->u.resize(0);
      j->w.resize(0);
    }
    return s;
  }
  const DiscreteContactStep& last() const { return work_.eval; }
  bool uses_blocks(Eigen::Index n) const { return blocks_ && n > kDenseContactJacobianLimit; }
  // The block Jacobian costs ~13 contact evaluations per contact against one for the residual: formed only when
  // Newton needs it (never at the converged iterate). The dense path keeps the solver's default (its iterates and
  // evaluation counts stay those of before).
  bool defer_jacobian() const override { return uses_blocks(before_.q.size()); }

 private:
  // 2M/h² first (every diagonal entry present, so the pattern depends on the contact list only), then the blocks;
  // the assembler sums the contributions of an entry in that order and keeps the pattern while the contact list is
  // unchanged (then it refills the values straight from the blocks).
  void BlockJacobian(const Eigen::VectorXd& q1, double motion, NewtonJacobian& j) {
    work_.inertia = (2.0 / (h_ * h_)) * m_;
    blocks_->DiscreteStepJacobianBlocks(before_, q1, h_, form_, motion, work_.blocks);
    work_.assembler.Assemble(work_.inertia, work_.blocks, j.matrix);
  }
  void DenseJacobian(const Eigen::VectorXd& q1, const Eigen::VectorXd& r, double motion, NewtonJacobian& j) {
    // J keeps the nonzero entries (those of the column-by-column matrix's sparseView()), in column order.
    const Eigen::Index n = q1.size();
    Eigen::VectorXd &qp = work_.probe_q, &rp = work_.probe_r;
    qp = q1;
    if (rp.size() != n) rp.resize(n);
    SparseEntries& entries = work_.dense_entries;  // room for n² entries (SolveDiscreteContactStep)
    entries.clear();
    for (Eigen::Index c = 0; c < n; ++c) {
      qp[c] = q1[c] + ForwardDifferenceStep(q1[c], motion);
      const double ec = qp[c] - q1[c];  // the step actually represented
      Residual(qp, rp, work_.probe);
      for (Eigen::Index i = 0; i < n; ++i) {
        const double value = (rp[i] - r[i]) / ec;
        if (value != 0.0) entries.emplace_back(static_cast<int>(i), static_cast<int>(c), value);
      }
      qp[c] = q1[c];
    }
    work_.dense_assembler.Assemble(n, n, entries, j.matrix);
  }
  double Residual(const Eigen::VectorXd& q1, Eigen::VectorXd& r, DiscreteContactStep& eval) {
    contacts_.EvaluateDiscreteStep(before_, q1, h_, form_, eval);
    ++evaluations_;
    // Δq = q₁ − q_n enters as that rounded difference, as when it was a separate vector
    r = (2.0 / (h_ * h_)) * m_.cwiseProduct(q1 - before_.q - h_ * before_.v) + eval.force;
    return (2.0 / (h_ * h_)) * (m_.cwiseProduct(q1 - before_.q).lpNorm<Eigen::Infinity>() +
                                m_.cwiseProduct(q1).lpNorm<Eigen::Infinity>()) +
           (2.0 / h_) * m_.cwiseProduct(before_.v).lpNorm<Eigen::Infinity>() + eval.scale;
  }
  const DiscreteContactSystem& contacts_;
  const DiscreteContactJacobian* blocks_;
  const MechanicalState& before_;
  const Eigen::VectorXd& m_;
  double h_;
  DiscreteGradientForm form_;
  long& evaluations_;
  ContactStepWorkspace& work_;
};

}  // namespace

const NewtonReport& SolveDiscreteContactStep(const DiscreteContactSystem& contacts, const MechanicalState& before,
                                             Eigen::VectorXd& q1, double h, DiscreteGradientForm form,
                                             const NewtonOptions& options, DiscreteContactStep& step,
                                             long& evaluations, ContactStepWorkspace& workspace) {
  // Size the dense path's storage with the first step (free flight may need no Jacobian until the first contact).
  const Eigen::Index n = q1.size();
  if (workspace.sized_n != n) {
    workspace.sized_n = n;
    workspace.newton.Reserve(n);
    if (n <= kDenseContactJacobianLimit) {
      workspace.newton.ReserveJacobian(n * n);
      workspace.dense_entries.reserve(static_cast<std::size_t>(n * n));
      workspace.dense_assembler.ReserveEntries(static_cast<std::size_t>(n * n), n);
      workspace.probe_q.resize(n);
      workspace.probe_r.resize(n);
    }
  }
  ContactStepResidual residual(contacts, before, h, form, evaluations, workspace);
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  // kAuto on block Jacobians: BiCGSTAB with a Jacobi preconditioner. J = 2M/h² + Σ contact blocks is dominated by
  // its diagonal at the steps a contact is resolved with; measured 16× faster than SparseLU at 10³ spheres, and
  // SparseLU's fill makes it impractical at 10⁴ (docs/performance.md, "Sparse Newton on the sphere assembly").
  NewtonOptions resolved = options;
  if (resolved.linear_solver == NewtonLinearSolver::kAuto && residual.uses_blocks(q1.size()))
    resolved.linear_solver = NewtonLinearSolver::kBiCgStabDiagonal;
  const NewtonReport& rep = SolveNewton(residual, q1, step_scale, resolved, workspace.newton);
  contacts.EvaluateDiscreteStep(before, q1, h, form, step);  // the converged iterate's books
  ++evaluations;
  // The difference's evaluation takes the sizes of this one (its first use may come with the first contact).
  if (workspace.probe.force.size() != step.force.size() || workspace.probe.z_next.size() != step.z_next.size())
    workspace.probe = step;
  return rep;
}

NewtonReport SolveDiscreteContactStep(const DiscreteContactSystem& contacts, const MechanicalState& before,
                                      Eigen::VectorXd& q1, double h, DiscreteGradientForm form,
                                      const NewtonOptions& options, DiscreteContactStep& step, long& evaluations) {
  ContactStepWorkspace workspace;
  return SolveDiscreteContactStep(contacts, before, q1, h, form, options, step, evaluations, workspace);
}

StepResult MidpointFamilyIntegrator::DoContactStep(const MechanicalSystem& system,
                                                   const DiscreteContactSystem& contacts, MechanicalState& state,
                                                   double h) {
  const MechanicalState& before = step_start();
  ContactStepWorkspace& w = work_.contact;
  // Predictor: explicit Verlet position (as for the other models).
  Eigen::VectorXd &a0 = w.a0, &q1 = w.q1;
  if (a0.size() != state.v.size()) a0.resize(state.v.size());
  system.Acceleration(before, a0);
  ++stats_.rhs_evaluations;
  q1 = before.q + h * before.v + (0.5 * h * h) * a0;
  DiscreteContactStep& step = w.step;
  long evaluations = 0;
  const NewtonReport& rep = SolveDiscreteContactStep(contacts, before, q1, h, contact_form(), options_.newton, step,
                                                     evaluations, work_.contact);
  stats_.rhs_evaluations += evaluations;
  StepResult result = NewtonStepResult(rep);
  if (!rep.converged) return result;
  state.q = q1;
  state.v = before.v - h * step.force.cwiseQuotient(w.mass);  // momentum form (see DoStep); M written by the solve
  state.t = before.t + h;
  state.dissipated = before.dissipated + step.dissipated;
  state.z = step.z_next;  // the scheme's own history update (friction, generated work booked there)
  return result;
}

void DiscreteForceScratch::Reserve(std::size_t entries_bound, Eigen::Index n) {
  entries.reserve(entries_bound + static_cast<std::size_t>(n));
  for (SparseAssembler* a : {&hessian_assembler, &damping_assembler, &jacobian_assembler, &damping_gradient_assembler})
    a->ReserveEntries(entries_bound + static_cast<std::size_t>(n), n);
  for (Eigen::SparseMatrix<double>* m : {&hessian, &damping_matrix, &damping_gradient}) {
    ReserveNonZeros(*m, static_cast<Eigen::Index>(entries_bound));
    if (m->rows() != n || m->cols() != n) m->resize(n, n);
  }
  for (Eigen::VectorXd* v : {&qm, &dq, &g, &g1, &damping, &hessian_dq, &magnitude, &rate})
    if (v->size() != n) v->resize(n);
  // The rank-one vectors' storage: parked until a step first needs them (possibly late in a run).
  for (Eigen::VectorXd& p : parked)
    if (p.size() != n) p.resize(n);
}

std::size_t SparseEntriesBound(const ConstantMassSystem& system, const PairPotentialStructure* structure) {
  const std::size_t bound = system.MaxSparseEntries();
  return bound == 0 && structure ? StructureMaxSparseEntries(*structure) : bound;
}

bool AssembleDampingForceGradient(const ConstantMassSystem& system, const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                  SparseEntries& entries, SparseAssembler& assembler, Eigen::SparseMatrix<double>& out) {
  if (!system.velocity_dependent_forces()) return false;
  entries.clear();
  system.AppendDampingForceGradientEntries(q, w, entries);
  if (entries.empty()) return false;
  const Eigen::Index n = q.size();
  assembler.Assemble(n, n, entries, out);
  return true;
}

void ParkOrTake(Eigen::VectorXd& v, bool need, Eigen::Index n, Eigen::VectorXd (&parked)[4]) {
  if (need) {
    if (v.size() == n) return;
    for (Eigen::VectorXd& p : parked)
      if (v.size() == 0 && p.size() == n) v.swap(p);
    if (v.size() != n) v.resize(n);
  } else if (v.size() > 0) {
    for (Eigen::VectorXd& p : parked)
      if (v.size() > 0 && p.size() == 0) p.swap(v);
    if (v.size() > 0) v.resize(0);
  }
}

template <int N>
StepResult MidpointFamilyIntegrator::DoSmallStep(const MechanicalSystem& system, const ContactTermForce& path,
                                                 MechanicalState& state, double h) {
  // DoStep's statements after the step's mass, f_ext and 2M/h² (written by DoStep into the workspace), in
  // Eigen::Matrix<double, N, 1> storage: the same operations per entry, so bitwise the same step.
  using Vector = Eigen::Matrix<double, N, 1>;
  using Matrix = Eigen::Matrix<double, N, N>;
  ++small_system_steps_;
  const MechanicalState& before = step_start();
  StepWorkspace& w = work_;
  SmallStepStorage<N>& storage = std::get<N - 1>(w.small);
  const Vector mass = w.mass, f_ext = w.f_ext, inertia_diagonal = w.inertia_diagonal, q0 = before.q, v0 = before.v;
  auto force = [&](const Vector& q1, SmallDiscreteForce<N>& out, Matrix* j) {
    EvaluateContactTermDiscreteForce<N>(*path.structure, path.form, before.q, q1, h, out, j, path.memo);
    ++stats_.rhs_evaluations;
  };
  Vector evaluated_at = Vector::Zero();
  MidpointResidualTerms<decltype(force), Vector, SmallDiscreteForce<N>> residual(
      force, mass, q0, v0, f_ext, h, inertia_diagonal, storage.eval, evaluated_at);
  // Predictor: the explicit Verlet position, as in DoStep.
  system.Acceleration(before, w.a0);
  ++stats_.rhs_evaluations;
  w.q1 = before.q + h * before.v + (0.5 * h * h) * w.a0;
  Vector q1 = w.q1;
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  NewtonReport& rep = w.small_report;
  ResetNewtonReport(rep, options_.newton);
  Vector r, r_trial, d, q1_trial, neg_r;
  Matrix jac, jac_trial;
  auto evaluate = [&residual](const Vector& at, Vector& res, Matrix* j) { return residual.Evaluate(at, res, j); };
  // The dense partial-pivoting LU of NewtonWorkspace's fixed-size path (no rank-one part: F̄ is a sum of terms).
  auto solve = [](const Matrix& a, const Vector& b, Vector& x) {
    const Eigen::PartialPivLU<Matrix> lu(a);  // singular: a non-finite x
    const Vector solution = lu.solve(b);
    x = solution;
    return x.allFinite();
  };
  IterateNewton(evaluate, solve, false, q1, step_scale, options_.newton, rep, r, r_trial, d, q1_trial, neg_r, jac,
                jac_trial);
  StepResult result = NewtonStepResult(rep);
  if (!rep.converged) return result;
  const bool last_at_q1 = residual.LastEvaluatedAt(q1);
  if (!last_at_q1)
    EvaluateContactTermDiscreteForce<N>(*path.structure, path.form, before.q, q1, h, storage.final_eval, nullptr,
                                        path.memo);
  const SmallDiscreteForce<N>& final_eval = last_at_q1 ? storage.eval : storage.final_eval;
  // DoStep's v_{n+1} = v_n − h (F̄ − f_ext) ⊘ M, entry by entry.
  for (int i = 0; i < N; ++i) {
    state.q[i] = q1[i];
    state.v[i] = before.v[i] - h * ((final_eval.force[i] - f_ext[i]) / mass[i]);
  }
  state.t = before.t + h;
  state.dissipated = before.dissipated + final_eval.dissipation;
  system.UpdateHistory(before, state);
  return result;
}

void MidpointFamilyIntegrator::ReserveStepVectors(Eigen::Index n) {
  StepWorkspace& w = work_;
  for (Eigen::VectorXd* v : {&w.mass, &w.f_ext, &w.a0, &w.q1, &w.inertia_diagonal, &w.evaluated_at})
    if (v->size() != n) v->resize(n);
}

void MidpointFamilyIntegrator::ReserveWorkspace(const ConstantMassSystem& system, Eigen::Index n) {
  ReserveStepVectors(n);
  StepWorkspace& w = work_;
  // The Jacobian's storage for the model's whole contact list (its pattern once every contact has closed):
  // 0.5 H + r I + C/h + 2M/h² has at most 2 · bound + 2n entries.
  const std::size_t bound = SparseEntriesBound(system, as_structure_(system));
  if (bound == w.reserved_entries && n == w.reserved_n) return;
  w.reserved_entries = bound;
  w.reserved_n = n;
  w.newton.ReserveJacobian(static_cast<Eigen::Index>(2 * bound) + 2 * n);
  w.newton.Reserve(n);
  w.eval.scratch.Reserve(bound, n);
  w.final_eval.scratch.Reserve(bound, n);
}

StepResult MidpointFamilyIntegrator::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  // The model's interfaces, resolved once per model (CachedDowncast), not once per step.
  if (const auto* contacts = as_contacts_(system)) return DoContactStep(system, *contacts, state, h);
  const ConstantMassSystem* cms_ptr = as_constant_mass_(system);
  if (state.q.size() != state.v.size() && !cms_ptr)
    throw InvalidParameter("integrator", "\"" + name() + "\" on model \"" + system.name() + "\"",
                           "a model with q' = v and a constant mass matrix; this model rotates in 3-D with unit "
                           "quaternions (q' = N(q) v, inertia not constant in these coordinates), which needs a "
                           "rotation-aware energy-momentum scheme (lie_poisson_midpoint, docs/rotation.md)");
  // name() builds a std::string (heap for names over 15 characters): only on the error path.
  const ConstantMassSystem& cms = cms_ptr ? *cms_ptr : RequireConstantMassSystem(system, name());
  Prepare(cms);
  const MechanicalState& before = step_start();  // the state at the start of this step (kept by Step)
  const Eigen::Index n = state.q.size();
  // The small-system path (DoSmallStep) reads only the step's vectors below, not the generic path's Newton and
  // sparse storage.
  static_assert(kSmallJacobian == 3, "DoSmallStep is instantiated for 1, 2 and 3 unknowns");
  std::optional<ContactTermForce> path;
  if (options_.small_system_path && n >= 1 && n <= kSmallJacobian && state.v.size() == n &&
      options_.newton.kind == NonlinearSolverKind::kNewtonSparseLu)
    path = contact_term_force();
  if (path)
    ReserveStepVectors(n);
  else
    ReserveWorkspace(cms, n);
  StepWorkspace& w = work_;
  cms.WriteMassDiagonal(w.mass);
  cms.ExternalForce(before.t + 0.5 * h, w.f_ext);
  for (Eigen::Index i = 0; i < n; ++i) w.inertia_diagonal[i] = 2.0 * w.mass[i] / (h * h);
  if (path) {
    switch (n) {
      case 1: return DoSmallStep<1>(system, *path, state, h);
      case 2: return DoSmallStep<2>(system, *path, state, h);
      default: return DoSmallStep<3>(system, *path, state, h);
    }
  }
  auto force = [&](const Eigen::VectorXd& q1, DiscreteForceEvaluation& out, NewtonJacobian* j) {
    EvaluateDiscreteForce(cms, before.q, q1, h, out, j);
    ++stats_.rhs_evaluations;
  };
  MidpointResidual<decltype(force)> residual(force, w.mass, before.q, before.v, w.f_ext, h, w.inertia_diagonal, w.eval,
                                             w.evaluated_at);
  // Predictor: the explicit Verlet position q_n + h v_n + h²/2 a_n (error O(h³) instead of O(h²) for the
  // q_n + h v_n of docs/theory.md §7: one RHS evaluation saves about one Newton iteration, docs/performance.md).
  system.Acceleration(before, w.a0);
  ++stats_.rhs_evaluations;
  w.q1 = before.q + h * before.v + (0.5 * h * h) * w.a0;
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  const NewtonReport& rep = SolveNewton(residual, w.q1, step_scale, options_.newton, w.newton);
  StepResult result = NewtonStepResult(rep);
  if (!rep.converged) return result;
  // F̄ and the dissipation of the converged iterate: the solver's last evaluation when it was made at this very
  // q₁ (bit for bit; F̄ and D do not depend on whether the Jacobian was formed with them), else re-evaluated (the
  // last call was a trial point, e.g. a backtracking step).
  const Eigen::VectorXd& q1 = w.q1;
  const bool last_at_q1 = residual.LastEvaluatedAt(q1);
  if (!last_at_q1) EvaluateDiscreteForce(cms, before.q, q1, h, w.final_eval, nullptr);
  const DiscreteForceEvaluation& final_eval = last_at_q1 ? w.eval : w.final_eval;
  const Eigen::VectorXd& f_ext = w.f_ext;
  const Eigen::VectorXd& mass = w.mass;
  // v_{n+1} from the momentum balance M Δv = −h (F̄ − f_ext) rather than from 2Δq/h − v_n: the two agree up
  // to the Newton residual, but the momentum form makes the energy books exact to ~ε·|q|·|F̄| per step
  // (ΔK = −h v_{n+½}·(F̄ − f_ext)), while the kinematic form would carry Δq·R ~ ε |q| m |v| / h.
  state.q = q1;
  state.v = before.v - h * (final_eval.force - f_ext).cwiseQuotient(mass);
  state.t = before.t + h;
  state.dissipated = before.dissipated + final_eval.dissipation;
  system.UpdateHistory(before, state);
  return result;
}

}  // namespace impactlab
