// MidpointFamilyIntegrator: the shared one-step machinery of the midpoint-type schemes (implicit midpoint,
// Simo–Tarnow, Gonzalez discrete gradients), which differ only in the discrete force F̄ [THEORY.md §7]:
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
// MechanicalState::dissipated. Non-convergence → StepStatus::kRetrySmallerStep (state restored by Step()).
// Models must implement ConstantMassSystem (M diagonal); otherwise construction of a step throws.
#pragma once

#include "integrators/integrator.h"
#include "integrators/newton_solver.h"
#include "system/constant_mass_system.h"

namespace impactlab {

struct ImplicitSchemeOptions {
  NewtonOptions newton;
  void Validate() const { newton.Validate(); }
};

/// The discrete force of one midpoint-type scheme at a Newton iterate.
struct DiscreteForceEvaluation {
  Eigen::VectorXd force;              ///< F̄(q_n, q_{n+1}) including damping [N]
  double dissipation = 0.0;           ///< D_n = work of the discrete damping force over the step [J], ≥ 0
  double scale = 0.0;                 ///< magnitude of the terms summed in `force` (round-off scale)
};

class MidpointFamilyIntegrator : public Integrator {
 public:
  const ImplicitSchemeOptions& options() const { return options_; }

 protected:
  explicit MidpointFamilyIntegrator(ImplicitSchemeOptions options);
  /// Called once per step before the Newton solve (e.g. to fetch the model's contact structure).
  virtual void Prepare(const ConstantMassSystem& system) { (void)system; }
  /// F̄(q0, q1) for step h; when `jacobian` is non-null also ∂F̄/∂q1 (jacobian->matrix sized n×n; an
  /// optional rank-one part u wᵀ).
  virtual void EvaluateDiscreteForce(const ConstantMassSystem& system, const Eigen::VectorXd& q0,
                                     const Eigen::VectorXd& q1, double h, DiscreteForceEvaluation& out,
                                     NewtonJacobian* jacobian) const = 0;

 private:
  StepResult DoStep(const MechanicalSystem& system, MechanicalState& state, double h) final;
  ImplicitSchemeOptions options_;
};

/// The ConstantMassSystem behind `system`, or InvalidParameter naming the integrator.
const ConstantMassSystem& RequireConstantMassSystem(const MechanicalSystem& system, const std::string& integrator);

}  // namespace impactlab
