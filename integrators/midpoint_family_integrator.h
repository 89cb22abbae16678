// MidpointFamilyIntegrator: the shared one-step machinery of the midpoint-type schemes (implicit midpoint,
// Simo–Tarnow, Gonzalez discrete gradients), which differ only in the discrete force F̄ [docs/theory.md §7]:
//
//   q_{n+1} − q_n = h v_{n+½},     v_{n+½} = (v_n + v_{n+1})/2
//   M (v_{n+1} − v_n) = −h F̄(q_n, q_{n+1}) + h f_ext(t_{n+½})
//
// F̄ contains the conservative part (∇V(q_{n+½}) or a discrete gradient ∇̄V) and the damping part
// (C̄ Δq/h). The unknown is q_{n+1}; with the predictor q_n + h v_n, Newton (integrators/newton_solver.h)
// solves
//   R(q_{n+1}) = (2M/h²)(Δq − h v_n) + F̄(q_n, q_{n+1}) − f_ext(t_{n+½}) = 0,
//   J = 2M/h² + ∂F̄/∂q_{n+1},
// then v_{n+1} = v_n − h M⁻¹ (F̄ − f_ext) (the momentum balance; equal to 2Δq/h − v_n up to the residual). Energy: H_{n+1} − H_n = −(ΔV-error of F̄) − D_n + Δq·f_ext + Δq·R, where
// D_n ≥ 0 is the work of the scheme's own damping force, D_n = Δqᵀ C̄ Δq / h, added to
// MechanicalState::dissipated; F̄ and D_n of the converged iterate are those of Newton's last evaluation when it was
// made at that very q_{n+1} (checked bit for bit), else re-evaluated. The residual scale's step-start terms and the
// model's interfaces (CachedDowncast) are computed once per step and once per model respectively.
// Non-convergence → StepStatus::kRetrySmallerStep (state restored by Step()).
// Models must implement ConstantMassSystem (M diagonal) or DiscreteContactSystem (contacts with friction, spin
// or history through the contact seam, system/discrete_contact_system.h); otherwise the step throws. On a
// DiscreteContactSystem the scheme's contact_form() is handed to the model, which evaluates F̄ contact by contact
// through contact/contact_law.h; Newton's Jacobian is then assembled sparse from the model's per-contact blocks when
// the model offers them (system/discrete_contact_jacobian.h) and the step has more than 24 unknowns, else a dense
// forward difference of F̄ column by column (the tangential return mapping has no closed-form derivative); the
// step's books (damping, friction and generated work, the new history) come from the converged evaluation.
// Small-system path: a scheme whose F̄ is the contact-term force (contact_term_force(): Simo–Tarnow and the invariant
// discrete gradient on pair-potential models) takes the same step on N ≤ 3 unknowns in Eigen::Matrix<double, N, 1>
// storage (DoSmallStep): the residual, the contact-term sum and the Newton iteration are each one template over the
// storage, so the iterates are bitwise those of the generic path (tests/integrators/small_system_path_test.cpp).
#pragma once

#include <optional>
#include <tuple>
#include <typeinfo>

#include "contact/contact_law.h"
#include "integrators/integrator.h"
#include "integrators/newton_solver.h"
#include "system/block_sparse_assembly.h"
#include "system/constant_mass_system.h"
#include "system/contact_blocks.h"
#include "system/discrete_contact_system.h"
#include "system/pair_potential_structure.h"

namespace impactlab {

struct ImplicitSchemeOptions {
  NewtonOptions newton;
  /// Systems of N ≤ 3 unknowns whose discrete force is the contact-term force (ContactTermForce) take the
  /// fixed-size path (Eigen::Matrix<double, N, 1> storage, the same statements: bitwise the same iterates, counts and
  /// books, tests/integrators/small_system_path_test.cpp); false sends them through the generic path (for that test).
  bool small_system_path = true;
  void Validate() const { newton.Validate(); }
};

class StepStartMemo;

/// F̄ of a midpoint-type scheme on a system of N ≤ 3 unknowns, in fixed-size storage (the small-system path).
template <int N>
struct SmallDiscreteForce {
  Eigen::Matrix<double, N, 1> force = Eigen::Matrix<double, N, 1>::Zero();  ///< F̄(q_n, q_{n+1}) [N]
  double dissipation = 0.0;                                                 ///< D_n [J]
  double scale = 0.0;                                                       ///< round-off scale of `force`
};

/// A scheme whose F̄ on the current model is the contact-term force of integrators/contact_term_discrete_force.h:
/// the structure, the pair form and the step-start memo it evaluates with.
struct ContactTermForce {
  const PairPotentialStructure* structure = nullptr;
  DiscreteGradientForm form = DiscreteGradientForm::kGapQuotient;
  StepStartMemo* memo = nullptr;
};

/// Storage the discrete-force evaluators reuse between calls (intermediate vectors, the Hessian and damping
/// matrices assembled on the pattern of the previous call, the triplet list), so that an evaluation allocates
/// nothing once it has been sized. Never part of the result.
struct DiscreteForceScratch {
  Eigen::VectorXd qm, dq, g, g1, damping, hessian_dq, magnitude, rate;
  Eigen::VectorXd parked[4];  ///< storage of the two Jacobians' rank-one vectors u, w while they are empty
  SparseEntries entries;
  SparseAssembler hessian_assembler, damping_assembler, jacobian_assembler, damping_gradient_assembler;
  Eigen::SparseMatrix<double> hessian, damping_matrix;
  Eigen::SparseMatrix<double> damping_gradient;  ///< ∂(C(q) w)/∂q (ConstantMassSystem::AppendDampingForceGradientEntries)
  /// Room for `entries` triplets per matrix (e.g. ConstantMassSystem::MaxSparseEntries) and n unknowns.
  void Reserve(std::size_t entries, Eigen::Index n);
};

/// The discrete force of one midpoint-type scheme at a Newton iterate.
struct DiscreteForceEvaluation {
  Eigen::VectorXd force;              ///< F̄(q_n, q_{n+1}) including damping [N]
  double dissipation = 0.0;           ///< D_n = work of the discrete damping force over the step [J], ≥ 0
  double scale = 0.0;                 ///< magnitude of the terms summed in `force` (round-off scale)
  DiscreteForceScratch scratch;       ///< reused storage of the evaluator (not a result)
};

/// D = ∂(C(q) w)/∂q of `system` at fixed w (ConstantMassSystem::AppendDampingForceGradientEntries; docs/theory.md §7),
/// its triplets collected in `entries` (cleared first) and assembled into `out` on `assembler`'s kept pattern. false,
/// with nothing assembled, when the model has no velocity-dependent forces or appends no entry (then the Jacobian is
/// left exactly as without the term). Shared by the midpoint family (½D at q_{n+½}) and the Newmark family
/// ((1 − α_f)D at d_{n+1}).
bool AssembleDampingForceGradient(const ConstantMassSystem& system, const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                  SparseEntries& entries, SparseAssembler& assembler, Eigen::SparseMatrix<double>& out);

/// Gives `v` size n (need) or size 0, moving storage to and from `parked` instead of allocating and freeing.
void ParkOrTake(Eigen::VectorXd& v, bool need, Eigen::Index n, Eigen::VectorXd (&parked)[4]);

/// What SolveDiscreteContactStep keeps between steps: the Newton workspace (its linear solver's symbolic analysis
/// included) and the block Jacobian's blocks, inertia diagonal and assembler (pattern kept while the contact list
/// is unchanged). A cache: results never depend on it.
struct ContactStepWorkspace {
  NewtonWorkspace newton;
  ContactBlocks blocks;
  Eigen::VectorXd inertia;  ///< 2M/h²
  BlockSparseAssembler assembler;
  Eigen::VectorXd mass, a0, q1;      ///< the step's M, predictor acceleration and iterate (MidpointFamilyIntegrator)
  Eigen::VectorXd probe_q, probe_r;  ///< the dense forward difference's shifted iterate and residual
  SparseEntries dense_entries;       ///< its nonzero entries, column by column
  SparseAssembler dense_assembler;
  DiscreteContactStep eval, probe, step;  ///< the model's evaluations (residual, difference, converged iterate)
  Eigen::Index sized_n = -1;              ///< the size everything above was reserved for
};

/// dynamic_cast<const To*>(&object), recomputed only when the object's address or dynamic type differs from the
/// last call's (the cast's result depends on nothing else): an implicit step resolves its model's interfaces once
/// per run instead of once per step (a failed cross cast walks the whole class hierarchy).
template <class To>
class CachedDowncast {
 public:
  template <class From>
  const To* operator()(const From& object) {
    if (&object != static_cast<const void*>(object_) || type_ == nullptr || typeid(object) != *type_) {
      object_ = &object;
      type_ = &typeid(object);
      cast_ = dynamic_cast<const To*>(&object);
    }
    return cast_;
  }

 private:
  const void* object_ = nullptr;
  const std::type_info* type_ = nullptr;
  const To* cast_ = nullptr;
};

class MidpointFamilyIntegrator : public Integrator {
 public:
  const ImplicitSchemeOptions& options() const { return options_; }
  /// Steps taken on the small-system path since construction (for tests).
  long small_system_steps() const { return small_system_steps_; }

 protected:
  explicit MidpointFamilyIntegrator(ImplicitSchemeOptions options);
  /// Called once per step before the Newton solve (e.g. to fetch the model's contact structure).
  virtual void Prepare(const ConstantMassSystem& system) { (void)system; }
  /// F̄(q0, q1) for step h; when `jacobian` is non-null also ∂F̄/∂q1 (jacobian->matrix sized n×n; an
  /// optional rank-one part u wᵀ).
  virtual void EvaluateDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                     const Eigen::VectorXd& q1, double h, DiscreteForceEvaluation& out,
                                     NewtonJacobian* jacobian) const = 0;
  /// How this scheme discretizes contact forces on a DiscreteContactSystem.
  virtual DiscreteGradientForm contact_form() const = 0;
  /// Set when this scheme's F̄ on the model of the current step (after Prepare) is the contact-term force: systems
  /// of at most 3 unknowns then take the fixed-size path. Default: never.
  virtual std::optional<ContactTermForce> contact_term_force() const { return std::nullopt; }

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) final;
  StepResult DoContactStep(const MechanicalSystem& system, const DiscreteContactSystem& contacts,
                           MechanicalState& state, double h);
  /// The step of DoStep on N ≤ 3 unknowns with the contact-term force, in fixed-size storage.
  template <int N>
  StepResult DoSmallStep(const MechanicalSystem& system, const ContactTermForce& force, MechanicalState& state,
                         double h);
  /// The small-system path's storage kept between steps: its two evaluations of F̄ (the report is
  /// StepWorkspace::small_report).
  template <int N>
  struct SmallStepStorage {
    SmallDiscreteForce<N> eval, final_eval;
  };
  /// Storage kept between steps (issue 19: no heap allocation inside a step once sized): the Newton workspace,
  /// the step's vectors and the evaluators' scratch. A cache: results never depend on it.
  struct StepWorkspace {
    NewtonWorkspace newton;
    Eigen::VectorXd mass, f_ext, a0, q1, inertia_diagonal;
    Eigen::VectorXd evaluated_at;  ///< the q₁ of `eval` (the Newton solve's last evaluation)
    DiscreteForceEvaluation eval, final_eval;
    ContactStepWorkspace contact;
    std::tuple<SmallStepStorage<1>, SmallStepStorage<2>, SmallStepStorage<3>> small;
    NewtonReport small_report;
    std::size_t reserved_entries = 0;
    Eigen::Index reserved_n = -1;
  };
  /// The step's vectors (mass, f_ext, a₀, q₁, 2M/h², the evaluated q₁).
  void ReserveStepVectors(Eigen::Index n);
  /// ReserveStepVectors and the generic path's Newton and sparse storage for the model's contact list.
  void ReserveWorkspace(const ConstantMassSystem& system, Eigen::Index n);
  ImplicitSchemeOptions options_;
  long small_system_steps_ = 0;
  StepWorkspace work_;
  CachedDowncast<DiscreteContactSystem> as_contacts_;
  CachedDowncast<ConstantMassSystem> as_constant_mass_;
  CachedDowncast<PairPotentialStructure> as_structure_;
};

/// One midpoint step q_n → q_{n+1} of a DiscreteContactSystem: Newton on
///   R(q₁) = (2M/h²)(q₁ − q_n − h v_n) + F̄(state_n, q₁) = 0
/// with J = 2M/h² + ∂F̄/∂q₁ assembled sparse from the model's contact blocks (DiscreteContactJacobian, above 24
/// unknowns; NewtonLinearSolver::kAuto then means BiCGSTAB with a Jacobi preconditioner) or by dense forward
/// differences; returns the Newton report (the workspace's, valid until its next solve) and leaves the converged
/// evaluation in `step`.
const NewtonReport& SolveDiscreteContactStep(const DiscreteContactSystem& contacts, const MechanicalState& before,
                                             Eigen::VectorXd& q1, double h, DiscreteGradientForm form,
                                             const NewtonOptions& options, DiscreteContactStep& step,
                                             long& evaluations, ContactStepWorkspace& workspace);
/// The same with a fresh workspace.
NewtonReport SolveDiscreteContactStep(const DiscreteContactSystem& contacts, const MechanicalState& before,
                                      Eigen::VectorXd& q1, double h, DiscreteGradientForm form,
                                      const NewtonOptions& options, DiscreteContactStep& step, long& evaluations);

/// An upper bound on the entries of ∇²V or C (ConstantMassSystem::MaxSparseEntries, else the pair structure's
/// StructureMaxSparseEntries when `structure` is the model's PairPotentialStructure; 0 when neither knows): the implicit
/// schemes size their Jacobian storage with it.
std::size_t SparseEntriesBound(const ConstantMassSystem& system, const PairPotentialStructure* structure);

/// The ConstantMassSystem behind `system`, or InvalidParameter naming the integrator.
const ConstantMassSystem& RequireConstantMassSystem(const MechanicalSystem& system, const std::string& integrator);

}  // namespace impactlab
