// Registration of the implicit baselines and the energy–momentum conserving schemes (issue 4):
//   implicit_midpoint, simo_tarnow, gonzalez_dg, gonzalez_dg_invariant, lie_poisson_midpoint (issue 15),
//   newmark (keys newmark_beta, newmark_gamma), trapezoidal, hht_alpha (key hht_alpha),
//   generalized_alpha (key rho_inf)
// Shared keys: nonlinear_solver = "newton" (Eigen sparse LU, default) | "kinsol" (SUNDIALS KINSOL),
// newton_max_iterations, newton_linear_solver = "auto" (default: "band" for a narrow-banded Jacobian, else
// "direct", except BiCGSTAB with a Jacobi preconditioner for the contact seam's block Jacobians) | "band" (SUNDIALS
// band LU above 24 unknowns) | "direct" (dense LU up to 24 unknowns, Eigen sparse LU above) | "bicgstab_diagonal" |
// "bicgstab_ilut" (integrators/newton_solver.h).
#include <cmath>

#include "core/checks.h"
#include "integrators/generalized_alpha.h"
#include "integrators/gonzalez_discrete_gradient.h"
#include "integrators/implicit_midpoint.h"
#include "integrators/invariant_discrete_gradient.h"
#include "integrators/lie_poisson_midpoint.h"
#include "integrators/simo_tarnow.h"
#include "registry/registries.h"

namespace impactlab {

namespace {

ImplicitSchemeOptions ImplicitOptions(const ParameterSet& p) {
  ImplicitSchemeOptions o;
  const std::string solver = p.GetString("nonlinear_solver", "newton");
  if (solver == "newton") o.newton.kind = NonlinearSolverKind::kNewtonSparseLu;
  else if (solver == "kinsol") o.newton.kind = NonlinearSolverKind::kKinsol;
  else throw InvalidParameter("nonlinear_solver", "\"" + solver + "\"", "one of: kinsol, newton");
  const double iters = p.GetDouble("newton_max_iterations", o.newton.max_iterations);
  if (!(iters >= 1 && iters <= 1000 && std::floor(iters) == iters))
    throw InvalidParameter("newton_max_iterations", iters, "an integer in [1, 1000]");
  o.newton.max_iterations = static_cast<int>(iters);
  const std::string linear = p.GetString("newton_linear_solver", "auto");
  if (linear == "auto") o.newton.linear_solver = NewtonLinearSolver::kAuto;
  else if (linear == "band") o.newton.linear_solver = NewtonLinearSolver::kBand;
  else if (linear == "direct") o.newton.linear_solver = NewtonLinearSolver::kDirect;
  else if (linear == "bicgstab_diagonal") o.newton.linear_solver = NewtonLinearSolver::kBiCgStabDiagonal;
  else if (linear == "bicgstab_ilut") o.newton.linear_solver = NewtonLinearSolver::kBiCgStabIlut;
  else
    throw InvalidParameter("newton_linear_solver", "\"" + linear + "\"",
                           "one of: auto, band, bicgstab_diagonal, bicgstab_ilut, direct");
  o.Validate();
  return o;
}

}  // namespace

void RegisterConservingIntegrators(Registry<IntegratorFactory>& r) {
  r.Add("implicit_midpoint", "implicit midpoint rule (symplectic, 2nd order, not energy-conserving for contact)",
        [](const ParameterSet& p) { return std::make_unique<ImplicitMidpoint>(ImplicitOptions(p)); });
  r.Add("simo_tarnow", "Simo-Tarnow energy-momentum scheme: gap difference quotient + Phi-form damping",
        [](const ParameterSet& p) { return std::make_unique<SimoTarnow>(ImplicitOptions(p)); });
  r.Add("gonzalez_dg", "Gonzalez midpoint discrete gradient of V(q), Cartesian (energy exact, momentum not)",
        [](const ParameterSet& p) { return std::make_unique<GonzalezDiscreteGradient>(ImplicitOptions(p)); });
  r.Add("gonzalez_dg_invariant", "Gonzalez discrete gradient in the invariants |x_b - x_a|^2 (energy + momenta)",
        [](const ParameterSet& p) { return std::make_unique<InvariantDiscreteGradient>(ImplicitOptions(p)); });
  r.Add("lie_poisson_midpoint",
        "energy-momentum midpoint for one rigid body in quaternions: midpoint on Euler's equations + Cayley "
        "attitude (free body: E and spatial L to round-off); with translation, contact potential (Gonzalez "
        "discrete gradient in the step's Cayley coordinate) and dampers: E + D to round-off (docs/rotation.md)",
        [](const ParameterSet& p) { return std::make_unique<LiePoissonMidpoint>(ImplicitOptions(p).newton); });
  r.Add("newmark", "Newmark family (keys newmark_beta = 0.25, newmark_gamma = 0.5)", [](const ParameterSet& p) {
    return std::make_unique<GeneralizedAlpha>(
        "newmark",
        GeneralizedAlphaParameters::Newmark(p.GetDouble("newmark_beta", 0.25), p.GetDouble("newmark_gamma", 0.5)),
        ImplicitOptions(p));
  });
  r.Add("trapezoidal", "trapezoidal rule = Newmark beta = 1/4, gamma = 1/2", [](const ParameterSet& p) {
    return std::make_unique<GeneralizedAlpha>("trapezoidal", GeneralizedAlphaParameters::Trapezoidal(),
                                              ImplicitOptions(p));
  });
  r.Add("hht_alpha", "Hilber-Hughes-Taylor alpha (key hht_alpha in [-1/3, 0], default -0.1)",
        [](const ParameterSet& p) {
          return std::make_unique<GeneralizedAlpha>("hht_alpha",
                                                    GeneralizedAlphaParameters::Hht(p.GetDouble("hht_alpha", -0.1)),
                                                    ImplicitOptions(p));
        });
  r.Add("generalized_alpha", "Chung-Hulbert generalized-alpha (key rho_inf in [0, 1], default 0.8)",
        [](const ParameterSet& p) {
          return std::make_unique<GeneralizedAlpha>(
              "generalized_alpha", GeneralizedAlphaParameters::FromSpectralRadius(p.GetDouble("rho_inf", 0.8)),
              ImplicitOptions(p));
        });
}

}  // namespace impactlab
