#include "integrators/generalized_alpha.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/errors.h"
#include "integrators/colored_forward_difference.h"
#include "system/discrete_contact_jacobian.h"

namespace impactlab {

GeneralizedAlpha::GeneralizedAlpha(std::string name, GeneralizedAlphaParameters parameters,
                                   ImplicitSchemeOptions options)
    : name_(std::move(name)), p_(parameters), options_(options) {
  p_.Validate();
  options_.Validate();
}

IntegratorTraits GeneralizedAlpha::traits() const {
  IntegratorTraits t;
  // Second order iff γ = ½ − α_m + α_f [Chung & Hulbert 1993]; otherwise first order.
  t.order = std::abs(p_.gamma - (0.5 - p_.alpha_m + p_.alpha_f)) < 1e-12 ? 2 : 1;
  t.implicit = true;
  t.library = "impactlab";
  t.reference = "Chung & Hulbert 1993 (J. Appl. Mech. 60:371); Hilber, Hughes & Taylor 1977; Newmark 1959";
  t.damping_treatment = "C(d) v in the weighted internal force; dissipated work by the trapezoidal rule";
  return t;
}

namespace {

// The force form's residual and Jacobian. Every vector and matrix lives in the integrator's kept workspace; the
// values are those of the Eigen expressions
//   a₁, v₁ = Kinematics(d₁),  f₁ = ∇V(d₁) + C(d₁) v₁,
//   R = M ∘ ((1 − α_m) a₁ + α_m a₀) + (1 − α_f) f₁ + α_f f₀ − f_ext,
//   J = diag((1 − α_m) M/(βh²)) + (1 − α_f) (∇²V(d₁) + γ/(βh) C(d₁) + ∂(C(d) v₁)/∂d|d₁),
// evaluated in the same order, so the iterates are those of the former allocating form bit for bit (undamped models;
// with damping the ∂C/∂d term, added 2026-12-07, changes the iterates, not what they converge to).
class GeneralizedAlphaResidual final : public NewtonSystem {
 public:
  GeneralizedAlphaResidual(const ConstantMassSystem& s, const GeneralizedAlphaParameters& p, const MechanicalState& n,
                           double h, GeneralizedAlphaWorkspace& w)
      : s_(s), p_(p), n_(n), h_(h), w_(w) {}

  void Kinematics(const Eigen::VectorXd& d1, Eigen::VectorXd& a1, Eigen::VectorXd& v1) const {
    a1 = (d1 - n_.q - h_ * n_.v - h_ * h_ * (0.5 - p_.beta) * w_.a0) / (p_.beta * h_ * h_);
    v1 = n_.v + h_ * ((1.0 - p_.gamma) * w_.a0 + p_.gamma * a1);
  }

  double Evaluate(const Eigen::VectorXd& d1, Eigen::VectorXd& r, NewtonJacobian* j) override {
    const Eigen::Index n = d1.size();
    GeneralizedAlphaWorkspace& w = w_;
    const Eigen::VectorXd &m = w.mass, &a0 = w.a0;
    Kinematics(d1, w.a1, w.v1);
    s_.PotentialGradient(d1, w.g1);
    w.entries.clear();
    s_.AppendDampingMatrixEntries(d1, w.entries);
    w.damping_assembler.Assemble(n, n, w.entries, w.damping1);
    w.damping_v.noalias() = w.damping1 * w.v1;
    w.f1 = w.g1 + w.damping_v;
    r = m.cwiseProduct((1.0 - p_.alpha_m) * w.a1 + p_.alpha_m * a0) + (1.0 - p_.alpha_f) * w.f1 +
        p_.alpha_f * w.f0 - w.f_ext;
    if (j) {
      w.entries.clear();
      s_.AppendPotentialHessianEntries(d1, w.entries);
      w.hessian_assembler.Assemble(n, n, w.entries, w.hessian);
      // + ∂(C(d) v₁)/∂d at d₁ (v₁ held fixed; its own dependence on d₁ is the γ/(βh) C term).
      const bool rate_term =
          AssembleDampingForceGradient(s_, d1, w.v1, w.entries, w.damping_gradient_assembler, w.damping_gradient);
      const SparseTerm inner[3] = {{&w.hessian, 1.0, false},
                                   {&w.damping1, p_.gamma / (p_.beta * h_), false},
                                   {&w.damping_gradient, 1.0, false}};
      SparseCombine(n, inner, rate_term ? 3 : 2, w.stiffness);  // ∇²V + γ/(βh) C (+ D)
      const SparseTerm outer[1] = {{&w.stiffness, 1.0 - p_.alpha_f, false}};
      SparseCombine(n, outer, 1, j->matrix);  // (1 − α_f)(…)
      // + the inertia diagonal, added as `mass + (…)` adds it (x + 0 where the other side has no entry)
      w.inertia = (1.0 - p_.alpha_m) * m / (p_.beta * h_ * h_);
      AddDiagonal(j->matrix, w.inertia);
      j->u.resize(0);
      j->w.resize(0);
    }
    return m.cwiseProduct(w.a1).lpNorm<Eigen::Infinity>() + m.cwiseProduct(a0).lpNorm<Eigen::Infinity>() +
           w.f1.lpNorm<Eigen::Infinity>() + w.f0.lpNorm<Eigen::Infinity>() +
           w.f_ext.lpNorm<Eigen::Infinity>() +
           (m.cwiseProduct(d1 - n_.q).lpNorm<Eigen::Infinity>() + m.cwiseProduct(d1).lpNorm<Eigen::Infinity>()) /
               (p_.beta * h_ * h_);  // ulp(d₁)·M/(βh²) is the round-off floor of the inertia term
  }

 private:
  const ConstantMassSystem& s_;
  const GeneralizedAlphaParameters& p_;
  const MechanicalState& n_;
  double h_;
  GeneralizedAlphaWorkspace& w_;
};

// Acceleration form for any model with q̇ = v (see the header); unknown d_{n+1}, forward-difference Jacobian:
// column by column (dense), or, above kDenseDifferenceLimit unknowns on a model that lays out its contacts
// (DiscreteContactJacobian), grouped by ColoredForwardDifference on the pattern of those contacts: the body
// coordinates that a contact couples. Row i of R reads a(d₁, v₁(d₁)) of its body, and v₁ depends on d₁ coordinate by
// coordinate, so that pattern is the pattern of J.
class AccelerationFormResidual final : public NewtonSystem {
 public:
  static constexpr Eigen::Index kDenseDifferenceLimit = 24;
  /// Every vector, the trial state and the Jacobian's storage live in `w` (kept between steps); the values are those
  /// of the expressions below, so the iterates do not depend on the storage.
  AccelerationFormResidual(const MechanicalSystem& s, const GeneralizedAlphaParameters& p, const MechanicalState& n,
                           double h, long& evaluations, GeneralizedAlphaAccelerationWorkspace& w,
                           ColoredForwardDifference& colored, const DiscreteContactJacobian* contacts)
      : s_(s), p_(p), n_(n), h_(h), evaluations_(evaluations), w_(w), colored_(colored), contacts_(contacts) {
    w_.trial = n;  // sizes equal after the first step: no allocation
    w_.trial.t = n.t + h;
    w_.f0_ready = false;
  }
  /// The Jacobian of n unknowns is the grouped difference's (else the dense one).
  bool grouped(Eigen::Index n) const { return contacts_ != nullptr && n > kDenseDifferenceLimit; }
  void Kinematics(const Eigen::VectorXd& d1, Eigen::VectorXd& a1, Eigen::VectorXd& v1) const {
    const Eigen::VectorXd& a0 = w_.a0;
    a1 = (d1 - n_.q - h_ * n_.v - h_ * h_ * (0.5 - p_.beta) * a0) / (p_.beta * h_ * h_);
    v1 = n_.v + h_ * ((1.0 - p_.gamma) * a0 + p_.gamma * a1);
  }
  double Evaluate(const Eigen::VectorXd& d1, Eigen::VectorXd& r, NewtonJacobian* j) override {
    const double scale = Residual(d1, r);
    if (j) {
      const Eigen::Index n = d1.size();
      GeneralizedAlphaAccelerationWorkspace& w = w_;
      const double motion = (d1 - n_.q).lpNorm<Eigen::Infinity>() + h_ * n_.v.lpNorm<Eigen::Infinity>();
      // Forward-difference step of coordinate c, the same for the grouped and the dense difference.
      auto step_of = [&](Eigen::Index c) { return 1.5e-8 * std::max({std::abs(d1[c]), motion, 1e-300}); };
      if (grouped(n)) {
        // The contacts of the step from n_ to d1 (their layout; the form only changes the values, not read here).
        contacts_->DiscreteStepJacobianBlocks(n_, d1, h_, DiscreteGradientForm::kMidpoint, motion, w.layout);
        colored_.SetPattern(n, w.layout);
        for (Eigen::Index c = 0; c < n; ++c) w.step[c] = step_of(c);
        colored_.Evaluate(d1, r, w.step, [this](const Eigen::VectorXd& x, Eigen::VectorXd& rx) { Residual(x, rx); },
                          j->matrix);
        j->u.resize(0);
        j->w.resize(0);
        return scale;
      }
      // Column by column; J keeps the nonzero entries (those of `dense.sparseView()`), in column order.
      w.dp = d1;
      w.entries.clear();
      for (Eigen::Index c = 0; c < n; ++c) {
        w.dp[c] = d1[c] + step_of(c);
        const double e = w.dp[c] - d1[c];
        Residual(w.dp, w.rp);
        for (Eigen::Index i = 0; i < n; ++i) {
          const double value = (w.rp[i] - r[i]) / e;
          if (value != 0.0) w.entries.emplace_back(static_cast<int>(i), static_cast<int>(c), value);
        }
        w.dp[c] = d1[c];
      }
      w.assembler.Assemble(n, n, w.entries, j->matrix);
      j->u.resize(0);
      j->w.resize(0);
    }
    return scale;
  }

 private:
  double Residual(const Eigen::VectorXd& d1, Eigen::VectorXd& r) {
    GeneralizedAlphaAccelerationWorkspace& w = w_;
    Kinematics(d1, w.a1, w.v1);
    w.trial.q = d1;
    w.trial.v = w.v1;
    s_.Acceleration(w.trial, w.f1);
    ++evaluations_;
    if (!w.f0_ready) {
      s_.Acceleration(n_, w.f0);
      ++evaluations_;
      w.f0_ready = true;
    }
    const Eigen::VectorXd &a0 = w.a0, &a1 = w.a1, &f0 = w.f0, &f1 = w.f1;
    r = (1.0 - p_.alpha_m) * a1 + p_.alpha_m * a0 - (1.0 - p_.alpha_f) * f1 - p_.alpha_f * f0;
    return a1.lpNorm<Eigen::Infinity>() + a0.lpNorm<Eigen::Infinity>() + f1.lpNorm<Eigen::Infinity>() +
           f0.lpNorm<Eigen::Infinity>() +
           ((d1 - n_.q).lpNorm<Eigen::Infinity>() + d1.lpNorm<Eigen::Infinity>()) / (p_.beta * h_ * h_);
  }
  const MechanicalSystem& s_;
  const GeneralizedAlphaParameters& p_;
  const MechanicalState& n_;
  double h_;
  long& evaluations_;
  GeneralizedAlphaAccelerationWorkspace& w_;
  ColoredForwardDifference& colored_;
  const DiscreteContactJacobian* contacts_;
};

}  // namespace

StepResult GeneralizedAlpha::DoAccelerationFormStep(const MechanicalSystem& system, MechanicalState& state,
                                                    double h) {
  const MechanicalState& before = step_start();
  const Eigen::Index n = state.v.size();
  GeneralizedAlphaAccelerationWorkspace& w = accel_;
  if (w.a0.size() != n) {  // sized once per model size
    for (Eigen::VectorXd* v : {&w.a0, &w.d1, &w.a1, &w.v1, &w.f0, &w.f1, &w.dp, &w.rp, &w.step}) v->resize(n);
    if (n <= AccelerationFormResidual::kDenseDifferenceLimit) {
      w.entries.reserve(static_cast<std::size_t>(n * n));
      w.assembler.ReserveEntries(static_cast<std::size_t>(n * n), n);
      w.newton.ReserveJacobian(n * n);
    }
    w.newton.Reserve(n);
  }
  if (cache_valid_ && cached_state_.SameValues(state)) {
    w.a0 = cached_acceleration_;
  } else {
    system.Acceleration(before, w.a0);
    ++stats_.rhs_evaluations;
  }
  long evaluations = 0;
  AccelerationFormResidual residual(system, p_, before, h, evaluations, w, colored_, as_contact_jacobian_(system));
  w.d1 = before.q + h * before.v + 0.5 * h * h * w.a0;
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  // kAuto on the grouped difference: BiCGSTAB with a Jacobi preconditioner, as the midpoint family on the same
  // contacts. J = (1 − α_m)/(βh²) I − (1 − α_f)(∂a/∂d + γ/(βh) ∂a/∂v) is dominated by its diagonal at the steps a
  // contact is resolved with, and SparseLU's fill dominated the step at 10³ spheres (docs/performance.md).
  NewtonOptions newton = options_.newton;
  if (newton.linear_solver == NewtonLinearSolver::kAuto && residual.grouped(n))
    newton.linear_solver = NewtonLinearSolver::kBiCgStabDiagonal;
  const NewtonReport& rep = SolveNewton(residual, w.d1, step_scale, newton, w.newton);
  stats_.rhs_evaluations += evaluations;
  StepResult result = NewtonStepResult(rep);
  if (!rep.converged) return result;
  residual.Kinematics(w.d1, w.a1, w.v1);
  const double p0 = system.DissipationPower(before);
  state.q = w.d1;
  state.v = w.v1;
  state.t = before.t + h;
  state.z = before.z;
  state.dissipated = before.dissipated + 0.5 * h * (p0 + system.DissipationPower(state));
  system.UpdateHistory(before, state);
  cached_state_ = state;
  cached_acceleration_ = w.a1;
  cache_valid_ = true;
  return result;
}

void GeneralizedAlpha::ReserveForceForm(const ConstantMassSystem& system, Eigen::Index n) {
  GeneralizedAlphaWorkspace& w = force_;
  for (Eigen::VectorXd* v : {&w.mass, &w.a0, &w.g0, &w.f0, &w.fe0, &w.fe1, &w.f_ext, &w.d1, &w.damping_v, &w.inertia,
                             &w.a1, &w.v1, &w.g1, &w.f1})
    if (v->size() != n) v->resize(n);
  // Room for the model's whole contact list (the pattern once every contact has closed): C and ∇²V have at most
  // `bound` entries each, J = diag + (1 − α_f)(∇²V + γ/(βh) C) at most 2 · bound + n.
  const std::size_t bound = SparseEntriesBound(system, as_structure_(system));
  if (bound == w.reserved_entries && n == w.reserved_n) return;
  w.reserved_entries = bound;
  w.reserved_n = n;
  const auto entries = static_cast<Eigen::Index>(bound);
  w.entries.reserve(bound + static_cast<std::size_t>(n));
  for (SparseAssembler* a :
       {&w.start_damping_assembler, &w.damping_assembler, &w.hessian_assembler, &w.damping_gradient_assembler})
    a->ReserveEntries(bound + static_cast<std::size_t>(n), n);
  for (Eigen::SparseMatrix<double>* m : {&w.damping0, &w.damping1, &w.hessian, &w.stiffness, &w.damping_gradient}) {
    if (m->rows() != n || m->cols() != n) m->resize(n, n);
    ReserveNonZeros(*m, m == &w.stiffness ? 2 * entries : entries);
  }
  w.newton.ReserveJacobian(2 * entries + n);
  w.newton.Reserve(n);
}

StepResult GeneralizedAlpha::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  const ConstantMassSystem* cms_ptr = as_constant_mass_(system);
  if (!cms_ptr) {
    if (state.q.size() != state.v.size())
      throw InvalidParameter("integrator", "\"" + name_ + "\" on model \"" + system.name() + "\"",
                             "a model with q' = v; this model has q' = N(q) v (unit quaternions), which Newmark's "
                             "displacement update d + h v + ... does not keep on the unit sphere");
    return DoAccelerationFormStep(system, state, h);
  }
  const ConstantMassSystem& cms = *cms_ptr;
  const MechanicalState& before = step_start();  // kept by Step()
  const Eigen::Index n = state.q.size();
  ReserveForceForm(cms, n);
  GeneralizedAlphaWorkspace& w = force_;
  cms.WriteMassDiagonal(w.mass);
  if (cache_valid_ && cached_state_.t == state.t && cached_state_.q == state.q && cached_state_.v == state.v) {
    w.a0 = cached_acceleration_;
  } else {
    cms.Acceleration(before, w.a0);
    ++stats_.rhs_evaluations;
  }
  // f₀ = ∇V(d₀) + C(d₀) v₀ (C(d₀) v₀ kept for the dissipation power P₀ = v₀ᵀ C(d₀) v₀)
  cms.PotentialGradient(before.q, w.g0);
  w.entries.clear();
  cms.AppendDampingMatrixEntries(before.q, w.entries);
  w.start_damping_assembler.Assemble(n, n, w.entries, w.damping0);
  w.damping_v.noalias() = w.damping0 * before.v;
  w.f0 = w.g0 + w.damping_v;
  const double p0 = before.v.dot(w.damping_v);
  cms.ExternalForce(before.t, w.fe0);
  cms.ExternalForce(before.t + h, w.fe1);
  w.f_ext = (1.0 - p_.alpha_f) * w.fe1 + p_.alpha_f * w.fe0;
  GeneralizedAlphaResidual residual(cms, p_, before, h, w);
  w.d1 = before.q + h * before.v + 0.5 * h * h * w.a0;  // predictor a_{n+1} = a_n
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  const NewtonReport& rep = SolveNewton(residual, w.d1, step_scale, options_.newton, w.newton);
  stats_.rhs_evaluations += rep.jacobian_evaluations;
  StepResult result = NewtonStepResult(rep);
  if (!rep.converged) return result;
  residual.Kinematics(w.d1, w.a1, w.v1);
  // P₁ = v₁ᵀ C(d₁) v₁ (C assembled at the converged d₁)
  w.entries.clear();
  cms.AppendDampingMatrixEntries(w.d1, w.entries);
  w.damping_assembler.Assemble(n, n, w.entries, w.damping1);
  w.damping_v.noalias() = w.damping1 * w.v1;
  state.q = w.d1;
  state.v = w.v1;
  state.t = before.t + h;
  state.dissipated = before.dissipated + 0.5 * h * (p0 + w.v1.dot(w.damping_v));
  system.UpdateHistory(before, state);
  cached_state_ = state;
  cached_acceleration_ = w.a1;
  cache_valid_ = true;
  return result;
}

}  // namespace impactlab
