#include "integrators/cvode_bdf.h"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/checks.h"
#include "integrators/first_order_form.h"

namespace impactlab {

void CvodeBdfOptions::Validate() const {
  RequirePositive("cvode_rtol", rel_tol);
  RequirePositive("cvode_atol", abs_tol);
  if (max_order < 1 || max_order > 5) throw InvalidParameter("cvode_max_order", max_order, "1..5");
}

struct CvodeBdf::Impl {
  SUNContext ctx = nullptr;
  void* mem = nullptr;
  N_Vector y = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver LS = nullptr;
  const MechanicalSystem* system = nullptr;
  std::unique_ptr<FirstOrderForm> form;
  MechanicalState scratch;
  const MechanicalState* step_start = nullptr;  // stage history origin (first_order_form.h)
  MechanicalState last;  // state CVODE's history ends at
  // Kept between steps (no allocation in a step without events once sized): the root flags, the state at the last
  // root return and the integrated history before UpdateHistory.
  std::vector<int> root_info;
  std::vector<double> y_root;
  Eigen::VectorXd z_integrated;
  long rhs_evals_seen = 0, steps_seen = 0, nonlin_seen = 0, jac_seen = 0, fails_seen = 0;
  std::vector<double> overlap, rate;

  ~Impl() { Free(); }
  void Free() {
    if (mem) CVodeFree(&mem);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (y) N_VDestroy(y);
    if (ctx) SUNContext_Free(&ctx);
    mem = nullptr;
    LS = nullptr;
    A = nullptr;
    y = nullptr;
    ctx = nullptr;
    rhs_evals_seen = steps_seen = nonlin_seen = jac_seen = fails_seen = 0;
  }

  static int Rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user) {
    auto* self = static_cast<Impl*>(user);
    self->form->Rhs(*self->system, N_VGetArrayPointer(y), t, N_VGetArrayPointer(ydot), self->scratch,
                    self->step_start);
    for (sunindextype i = 0; i < N_VGetLength(ydot); ++i)
      if (!std::isfinite(N_VGetArrayPointer(ydot)[i])) return 1;  // recoverable: CVODE retries smaller
    return 0;
  }
  std::string last_error;  // CVODE's last error message (kept for StepResult::message, not printed)
  static void ErrorHandler(int, const char* module, const char* function, char* msg, void* user) {
    static_cast<Impl*>(user)->last_error = std::string(module) + "/" + function + ": " + msg;
  }
  static int Roots(sunrealtype t, N_Vector y, sunrealtype* g, void* user) {
    auto* self = static_cast<Impl*>(user);
    self->form->Unpack(N_VGetArrayPointer(y), t, self->scratch);
    self->system->ContactOverlaps(self->scratch, self->overlap, self->rate);
    for (size_t i = 0; i < self->overlap.size(); ++i) g[i] = self->overlap[i];
    return 0;
  }
};

CvodeBdf::CvodeBdf(Options options) : options_(options), impl_(std::make_unique<Impl>()) { options_.Validate(); }
CvodeBdf::~CvodeBdf() = default;
void CvodeBdf::Reset() { impl_->Free(); }

bool CvodeBdf::UsesDense(long n) const {
  switch (options_.linear_solver) {
    case CvodeLinearSolver::kDense: return true;
    case CvodeLinearSolver::kSpgmr: return false;
    case CvodeLinearSolver::kAuto: break;
  }
  return n <= kCvodeAutoDenseLimit;
}

IntegratorTraits CvodeBdf::traits() const {
  IntegratorTraits t;
  t.order = options_.max_order;
  t.implicit = true;
  t.adaptive = true;
  t.locates_events = true;
  // SUNLinSol_Dense on the first-order unknowns, unless GMRES is asked for (kAuto: dense only below
  // kCvodeAutoDenseLimit, so never on the large systems this trait keeps out of the bench)
  t.dense_matrices = options_.linear_solver == CvodeLinearSolver::kDense;
  t.library = "SUNDIALS CVODE " SUNDIALS_VERSION;
  t.reference = "Hindmarsh et al. 2005, ACM TOMS 31:363-396 (variable-order BDF)";
  t.damping_treatment = "exact right-hand side; Newton with a difference-quotient dense Jacobian, or matrix-free GMRES "
                        "for large systems";
  return t;
}

StepResult CvodeBdf::DoStep(const MechanicalSystem& system, MechanicalState& state, double h) {
  Impl& m = *impl_;
  const bool continues = m.mem && m.system == &system && m.last.t == state.t && m.last.q == state.q &&
                         m.last.v == state.v && m.last.z == state.z && m.last.dissipated == state.dissipated;
  if (!continues) {
    m.Free();
    m.system = &system;
    m.form = std::make_unique<FirstOrderForm>(state);
    m.scratch = state;
    m.overlap.assign(system.num_contacts(), 0.0);
    m.rate.assign(system.num_contacts(), 0.0);
    const auto n = static_cast<sunindextype>(m.form->size());
    if (SUNContext_Create(nullptr, &m.ctx) != 0) throw InternalError("SUNContext_Create failed");
    m.y = N_VNew_Serial(n, m.ctx);
    m.form->Pack(state, N_VGetArrayPointer(m.y));
    m.mem = CVodeCreate(CV_BDF, m.ctx);
    IMPACTLAB_DEMAND(m.mem != nullptr);
    IMPACTLAB_DEMAND(CVodeInit(m.mem, Impl::Rhs, state.t, m.y) == CV_SUCCESS);
    IMPACTLAB_DEMAND(CVodeSStolerances(m.mem, options_.rel_tol, options_.abs_tol) == CV_SUCCESS);
    IMPACTLAB_DEMAND(CVodeSetUserData(m.mem, &m) == CV_SUCCESS);
    IMPACTLAB_DEMAND(CVodeSetErrHandlerFn(m.mem, Impl::ErrorHandler, &m) == CV_SUCCESS);
    IMPACTLAB_DEMAND(CVodeSetMaxOrd(m.mem, options_.max_order) == CV_SUCCESS);
    IMPACTLAB_DEMAND(CVodeSetMaxNumSteps(m.mem, options_.max_internal_steps) == CV_SUCCESS);
    // The RHS jumps at contact exit (tensile damping force → 0); at tight tolerances the step that crosses
    // it needs more than the default 7 error-test failures to shrink below the jump before root finding
    // can locate the exit (docs/exact-solution.md).
    IMPACTLAB_DEMAND(CVodeSetMaxErrTestFails(m.mem, 50) == CV_SUCCESS);
    if (UsesDense(static_cast<long>(n))) {
      m.A = SUNDenseMatrix(n, n, m.ctx);
      m.LS = SUNLinSol_Dense(m.y, m.A, m.ctx);
    } else {
      // GMRES without preconditioner, Krylov dimension SPGMR's default (5), CVODE's default linear tolerance
      // (0.05 of the nonlinear one): the Newton matrix I − γJ is close to the identity at the steps the tolerance
      // asks for on contact problems, and CVODE judges the Newton iteration, not the Krylov one.
      m.LS = SUNLinSol_SPGMR(m.y, SUN_PREC_NONE, 0, m.ctx);
    }
    IMPACTLAB_DEMAND(m.LS != nullptr);
    IMPACTLAB_DEMAND(CVodeSetLinearSolver(m.mem, m.LS, m.A) == CV_SUCCESS);
    if (system.num_contacts() > 0) {
      IMPACTLAB_DEMAND(CVodeRootInit(m.mem, system.num_contacts(), Impl::Roots) == CV_SUCCESS);
      IMPACTLAB_DEMAND(CVodeSetNoInactiveRootWarn(m.mem) == CV_SUCCESS);
    }
  }
  const MechanicalState& before = step_start();  // kept by Step()
  m.step_start = &before;
  const double t_out = state.t + h;
  StepResult result;
  sunrealtype t_reached = state.t;
  std::vector<int>& root_info = m.root_info;
  root_info.assign(static_cast<size_t>(std::max(1, system.num_contacts())), 0);
  // State at the last root return: CVODE's root finder can stop with CV_ILL_INPUT ("root found at and very
  // near t") when it resumes from a root at which δ evaluates to exactly 0 on both sides of its probe step.
  // Restarting CVODE from the root state makes that root inactive at t0 (CVODE's documented behaviour),
  // so the run continues; allowed at most twice per Step.
  std::vector<double>& y_root = m.y_root;
  y_root.clear();
  double t_root = state.t;
  int root_restarts = 0;
  for (;;) {
    IMPACTLAB_DEMAND(CVodeSetStopTime(m.mem, t_out) == CV_SUCCESS);
    const int flag = CVode(m.mem, t_out, m.y, &t_reached, CV_NORMAL);
    if (flag == CV_ILL_INPUT && !y_root.empty() && root_restarts < 2) {
      ++root_restarts;
      std::copy(y_root.begin(), y_root.end(), N_VGetArrayPointer(m.y));
      IMPACTLAB_DEMAND(CVodeReInit(m.mem, t_root, m.y) == CV_SUCCESS);
      m.rhs_evals_seen = m.steps_seen = m.nonlin_seen = m.jac_seen = m.fails_seen = 0;
      continue;
    }
    if (flag == CV_ROOT_RETURN) {
      const double* yr = N_VGetArrayPointer(m.y);
      y_root.assign(yr, yr + N_VGetLength(m.y));
      t_root = t_reached;
      CVodeGetRootInfo(m.mem, root_info.data());
      MechanicalState at_root = state;
      m.form->Unpack(N_VGetArrayPointer(m.y), t_reached, at_root);
      for (int i = 0; i < system.num_contacts(); ++i) {
        if (root_info[i] == 0) continue;
        LocatedEvent ev;
        ev.contact = i;
        ev.entering = root_info[i] > 0;  // δ increasing through 0
        ev.state = at_root;
        result.events.push_back(std::move(ev));
      }
      if (t_reached >= t_out) break;
      continue;
    }
    if (flag < 0) {
      result.status = StepStatus::kFailed;
      result.cause = StepFailureCause::kCvodeFailure;
      result.message = std::string("CVODE failed: ") + CVodeGetReturnFlagName(flag) + " (" + m.last_error + ")";
      m.Free();
      return result;
    }
    break;
  }
  m.form->Unpack(N_VGetArrayPointer(m.y), t_out, state);
  long v = 0, linear = 0;
  // Every evaluation of the right-hand side: CVODE's own and those of its linear solver (the difference-quotient
  // Jacobian's n per Jacobian, or GMRES's one per J·v product), so that work counts compare with other schemes.
  CVodeGetNumRhsEvals(m.mem, &v);
  CVodeGetNumLinRhsEvals(m.mem, &linear);
  v += linear;
  stats_.rhs_evaluations += v - m.rhs_evals_seen;
  m.rhs_evals_seen = v;
  CVodeGetNumSteps(m.mem, &v);
  stats_.internal_steps += v - m.steps_seen;
  m.steps_seen = v;
  CVodeGetNumNonlinSolvIters(m.mem, &v);
  stats_.newton_iterations += v - m.nonlin_seen;
  result.newton_iterations = static_cast<int>(v - m.nonlin_seen);
  m.nonlin_seen = v;
  CVodeGetNumJacEvals(m.mem, &v);
  stats_.jacobian_evaluations += v - m.jac_seen;
  m.jac_seen = v;
  CVodeGetNumErrTestFails(m.mem, &v);
  stats_.rejected_steps += v - m.fails_seen;
  m.fails_seen = v;
  Eigen::VectorXd& z_integrated = m.z_integrated;
  z_integrated = state.z;
  system.UpdateHistory(before, state);
  if (state.z != z_integrated) {
    // A discrete history update changed z: CVODE's own copy must follow, or the next step would continue
    // from the stale z (the update would be silently lost). Re-initialize at t_out (restarts at order 1).
    m.form->Pack(state, N_VGetArrayPointer(m.y));
    IMPACTLAB_DEMAND(CVodeReInit(m.mem, t_out, m.y) == CV_SUCCESS);
    // CVodeReInit zeroes CVODE's counters; the statistics above were already collected.
    m.rhs_evals_seen = m.steps_seen = m.nonlin_seen = m.jac_seen = m.fails_seen = 0;
  }
  m.last = state;

  return result;
}

}  // namespace impactlab
