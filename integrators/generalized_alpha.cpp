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

class GeneralizedAlphaResidual final : public NewtonSystem {
 public:
  GeneralizedAlphaResidual(const ConstantMassSystem& s, const GeneralizedAlphaParameters& p, const MechanicalState& n,
                           const Eigen::VectorXd& a0, const Eigen::VectorXd& f0, const Eigen::VectorXd& f_ext,
                           double h)
      : s_(s), p_(p), n_(n), a0_(a0), f0_(f0), f_ext_(f_ext), h_(h), m_(s.MassDiagonal()) {}

  void Kinematics(const Eigen::VectorXd& d1, Eigen::VectorXd& a1, Eigen::VectorXd& v1) const {
    a1 = (d1 - n_.q - h_ * n_.v - h_ * h_ * (0.5 - p_.beta) * a0_) / (p_.beta * h_ * h_);
    v1 = n_.v + h_ * ((1.0 - p_.gamma) * a0_ + p_.gamma * a1);
  }

  double Evaluate(const Eigen::VectorXd& d1, Eigen::VectorXd& r, NewtonJacobian* j) override {
    const Eigen::Index n = d1.size();
    Eigen::VectorXd a1, v1, g1(n);
    Kinematics(d1, a1, v1);
    s_.PotentialGradient(d1, g1);
    const Eigen::SparseMatrix<double> c1 = s_.DampingMatrix(d1);
    const Eigen::VectorXd f1 = g1 + c1 * v1;
    const Eigen::VectorXd inertia = m_.cwiseProduct((1.0 - p_.alpha_m) * a1 + p_.alpha_m * a0_);
    r = inertia + (1.0 - p_.alpha_f) * f1 + p_.alpha_f * f0_ - f_ext_;
    if (j) {
      Eigen::SparseMatrix<double> mass(n, n);
      std::vector<Eigen::Triplet<double>> diag;
      for (Eigen::Index i = 0; i < n; ++i) diag.emplace_back(i, i, (1.0 - p_.alpha_m) * m_[i] / (p_.beta * h_ * h_));
      mass.setFromTriplets(diag.begin(), diag.end());
      j->matrix = mass + (1.0 - p_.alpha_f) * (s_.PotentialHessian(d1) + (p_.gamma / (p_.beta * h_)) * c1);
      j->u.resize(0);
      j->w.resize(0);
    }
    return m_.cwiseProduct(a1).lpNorm<Eigen::Infinity>() + m_.cwiseProduct(a0_).lpNorm<Eigen::Infinity>() +
           f1.lpNorm<Eigen::Infinity>() + f0_.lpNorm<Eigen::Infinity>() + f_ext_.lpNorm<Eigen::Infinity>() +
           (m_.cwiseProduct(d1 - n_.q).lpNorm<Eigen::Infinity>() + m_.cwiseProduct(d1).lpNorm<Eigen::Infinity>()) /
               (p_.beta * h_ * h_);  // ulp(d₁)·M/(βh²) is the round-off floor of the inertia term
  }

 private:
  const ConstantMassSystem& s_;
  const GeneralizedAlphaParameters& p_;
  const MechanicalState& n_;
  const Eigen::VectorXd &a0_, &f0_, &f_ext_;
  double h_;
  Eigen::VectorXd m_;
};

// Acceleration form for any model with q̇ = v (see the header); unknown d_{n+1}, forward-difference Jacobian:
// column by column (dense), or, above kDenseDifferenceLimit unknowns on a model that lays out its contacts
// (DiscreteContactJacobian), grouped by ColoredForwardDifference on the pattern of those contacts: the body
// coordinates that a contact couples. Row i of R reads a(d₁, v₁(d₁)) of its body, and v₁ depends on d₁ coordinate by
// coordinate, so that pattern is the pattern of J.
class AccelerationFormResidual final : public NewtonSystem {
 public:
  static constexpr Eigen::Index kDenseDifferenceLimit = 24;
  AccelerationFormResidual(const MechanicalSystem& s, const GeneralizedAlphaParameters& p, const MechanicalState& n,
                           const Eigen::VectorXd& a0, double h, long& evaluations, ColoredForwardDifference& colored)
      : s_(s), p_(p), n_(n), a0_(a0), h_(h), evaluations_(evaluations), trial_(n), colored_(colored),
        contacts_(dynamic_cast<const DiscreteContactJacobian*>(&s)) {
    trial_.t = n.t + h;
  }
  /// The Jacobian of n unknowns is the grouped difference's (else the dense one).
  bool grouped(Eigen::Index n) const { return contacts_ != nullptr && n > kDenseDifferenceLimit; }
  void Kinematics(const Eigen::VectorXd& d1, Eigen::VectorXd& a1, Eigen::VectorXd& v1) const {
    a1 = (d1 - n_.q - h_ * n_.v - h_ * h_ * (0.5 - p_.beta) * a0_) / (p_.beta * h_ * h_);
    v1 = n_.v + h_ * ((1.0 - p_.gamma) * a0_ + p_.gamma * a1);
  }
  double Evaluate(const Eigen::VectorXd& d1, Eigen::VectorXd& r, NewtonJacobian* j) override {
    const double scale = Residual(d1, r);
    if (j) {
      const Eigen::Index n = d1.size();
      const double motion = (d1 - n_.q).lpNorm<Eigen::Infinity>() + h_ * n_.v.lpNorm<Eigen::Infinity>();
      // Forward-difference step of coordinate c, the same for the grouped and the dense difference.
      auto step_of = [&](Eigen::Index c) { return 1.5e-8 * std::max({std::abs(d1[c]), motion, 1e-300}); };
      if (grouped(n)) {
        // The contacts of the step from n_ to d1 (their layout; the form only changes the values, not read here).
        contacts_->DiscreteStepJacobianBlocks(n_, d1, h_, DiscreteGradientForm::kMidpoint, motion, layout_);
        colored_.SetPattern(n, layout_);
        Eigen::VectorXd step(n);
        for (Eigen::Index c = 0; c < n; ++c) step[c] = step_of(c);
        colored_.Evaluate(d1, r, step, [this](const Eigen::VectorXd& x, Eigen::VectorXd& rx) { Residual(x, rx); },
                          j->matrix);
        j->u.resize(0);
        j->w.resize(0);
        return scale;
      }
      Eigen::MatrixXd dense(n, n);
      Eigen::VectorXd dp = d1, rp(n);
      for (Eigen::Index c = 0; c < n; ++c) {
        dp[c] = d1[c] + step_of(c);
        const double e = dp[c] - d1[c];
        Residual(dp, rp);
        dense.col(c) = (rp - r) / e;
        dp[c] = d1[c];
      }
      j->matrix = dense.sparseView();
      j->u.resize(0);
      j->w.resize(0);
    }
    return scale;
  }

 private:
  double Residual(const Eigen::VectorXd& d1, Eigen::VectorXd& r) {
    Eigen::VectorXd a1, v1;
    Kinematics(d1, a1, v1);
    trial_.q = d1;
    trial_.v = v1;
    Eigen::VectorXd f1(d1.size());
    s_.Acceleration(trial_, f1);
    ++evaluations_;
    if (f0_.size() == 0) {
      f0_.resize(d1.size());
      s_.Acceleration(n_, f0_);
      ++evaluations_;
    }
    r = (1.0 - p_.alpha_m) * a1 + p_.alpha_m * a0_ - (1.0 - p_.alpha_f) * f1 - p_.alpha_f * f0_;
    return a1.lpNorm<Eigen::Infinity>() + a0_.lpNorm<Eigen::Infinity>() + f1.lpNorm<Eigen::Infinity>() +
           f0_.lpNorm<Eigen::Infinity>() +
           ((d1 - n_.q).lpNorm<Eigen::Infinity>() + d1.lpNorm<Eigen::Infinity>()) / (p_.beta * h_ * h_);
  }
  const MechanicalSystem& s_;
  const GeneralizedAlphaParameters& p_;
  const MechanicalState& n_;
  const Eigen::VectorXd& a0_;
  double h_;
  long& evaluations_;
  MechanicalState trial_;
  Eigen::VectorXd f0_;
  ColoredForwardDifference& colored_;
  const DiscreteContactJacobian* contacts_;
  ContactBlocks layout_;
};

}  // namespace

StepResult GeneralizedAlpha::DoAccelerationFormStep(const MechanicalSystem& system, MechanicalState& state,
                                                    double h) {
  const MechanicalState& before = step_start();
  const Eigen::Index n = state.v.size();
  Eigen::VectorXd a0(n);
  if (cache_valid_ && cached_state_.SameValues(state)) {
    a0 = cached_acceleration_;
  } else {
    system.Acceleration(before, a0);
    ++stats_.rhs_evaluations;
  }
  long evaluations = 0;
  AccelerationFormResidual residual(system, p_, before, a0, h, evaluations, colored_);
  Eigen::VectorXd d1 = before.q + h * before.v + 0.5 * h * h * a0;
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  // kAuto on the grouped difference: BiCGSTAB with a Jacobi preconditioner, as the midpoint family on the same
  // contacts. J = (1 − α_m)/(βh²) I − (1 − α_f)(∂a/∂d + γ/(βh) ∂a/∂v) is dominated by its diagonal at the steps a
  // contact is resolved with, and SparseLU's fill dominated the step at 10³ spheres (docs/performance.md).
  NewtonOptions newton = options_.newton;
  if (newton.linear_solver == NewtonLinearSolver::kAuto && residual.grouped(d1.size()))
    newton.linear_solver = NewtonLinearSolver::kBiCgStabDiagonal;
  const NewtonReport rep = SolveNewton(residual, d1, step_scale, newton);
  stats_.newton_iterations += rep.iterations;
  stats_.jacobian_evaluations += rep.jacobian_evaluations;
  stats_.rhs_evaluations += evaluations;
  StepResult result;
  result.newton_iterations = rep.iterations;
  result.residual_norm = rep.residual_norm;
  if (!rep.converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = rep.cause;
    result.message = name_ + ": " + rep.message;
    return result;
  }
  Eigen::VectorXd a1, v1;
  residual.Kinematics(d1, a1, v1);
  const double p0 = system.DissipationPower(before);
  state.q = d1;
  state.v = v1;
  state.t = before.t + h;
  state.z = before.z;
  state.dissipated = before.dissipated + 0.5 * h * (p0 + system.DissipationPower(state));
  system.UpdateHistory(before, state);
  cached_state_ = state;
  cached_acceleration_ = a1;
  cache_valid_ = true;
  return result;
}

StepResult GeneralizedAlpha::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  if (!dynamic_cast<const ConstantMassSystem*>(&system)) {
    if (state.q.size() != state.v.size())
      throw InvalidParameter("integrator", "\"" + name_ + "\" on model \"" + system.name() + "\"",
                             "a model with q' = v; this model has q' = N(q) v (unit quaternions), which Newmark's "
                             "displacement update d + h v + ... does not keep on the unit sphere");
    return DoAccelerationFormStep(system, state, h);
  }
  const ConstantMassSystem& cms = RequireConstantMassSystem(system, name_);
  const MechanicalState& before = step_start();  // kept by Step()
  const Eigen::Index n = state.q.size();
  Eigen::VectorXd a0(n);
  if (cache_valid_ && cached_state_.t == state.t && cached_state_.q == state.q && cached_state_.v == state.v) {
    a0 = cached_acceleration_;
  } else {
    cms.Acceleration(before, a0);
    ++stats_.rhs_evaluations;
  }
  Eigen::VectorXd g0(n), fe0(n), fe1(n);
  cms.PotentialGradient(before.q, g0);
  const Eigen::SparseMatrix<double> c0 = cms.DampingMatrix(before.q);
  const Eigen::VectorXd f0 = g0 + c0 * before.v;
  cms.ExternalForce(before.t, fe0);
  cms.ExternalForce(before.t + h, fe1);
  const Eigen::VectorXd f_ext = (1.0 - p_.alpha_f) * fe1 + p_.alpha_f * fe0;
  GeneralizedAlphaResidual residual(cms, p_, before, a0, f0, f_ext, h);
  Eigen::VectorXd d1 = before.q + h * before.v + 0.5 * h * h * a0;  // predictor a_{n+1} = a_n
  const double step_scale = before.q.lpNorm<Eigen::Infinity>() + h * before.v.lpNorm<Eigen::Infinity>();
  const NewtonReport rep = SolveNewton(residual, d1, step_scale, options_.newton);
  stats_.newton_iterations += rep.iterations;
  stats_.jacobian_evaluations += rep.jacobian_evaluations;
  stats_.rhs_evaluations += rep.jacobian_evaluations;
  StepResult result;
  result.newton_iterations = rep.iterations;
  result.residual_norm = rep.residual_norm;
  if (!rep.converged) {
    result.status = StepStatus::kRetrySmallerStep;
    result.cause = rep.cause;
    result.message = name_ + ": " + rep.message;
    return result;
  }
  Eigen::VectorXd a1, v1;
  residual.Kinematics(d1, a1, v1);
  const double p0 = before.v.dot(c0 * before.v);
  state.q = d1;
  state.v = v1;
  state.t = before.t + h;
  state.dissipated = before.dissipated + 0.5 * h * (p0 + v1.dot(cms.DampingMatrix(d1) * v1));
  system.UpdateHistory(before, state);
  cached_state_ = state;
  cached_acceleration_ = a1;
  cache_valid_ = true;
  return result;
}

}  // namespace impactlab
