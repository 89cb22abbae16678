// The sparse Newton Jacobian of the planar ellipses (PlanarEllipses::DiscreteStepJacobianBlocks,
// system/discrete_contact_jacobian.h): the per-slot blocks equal the dense forward difference of the whole step force
// (Seed003's spring and a Mindlin law, every DiscreteGradientForm), and a midpoint contact step with the block
// Jacobian ends where the dense forward-difference one does, with the same Newton iteration count and far fewer
// force evaluations (16 ellipses in contact, 48 unknowns: above the dense limit of 24).
#include <doctest/doctest.h>

#include <Eigen/SparseCore>
#include <memory>
#include <string>

#include "core/parameter_set.h"
#include "integrators/efda.h"
#include "integrators/midpoint_family_integrator.h"
#include "models/planar_ellipses.h"
#include "registry/registries.h"
#include "support/discrete_step_difference.h"

using namespace impactlab;
using impactlab::testing::BlocksAgainstDense;
using impactlab::testing::CompareBlocksWithDense;
using impactlab::testing::BlocksAndDenseStep;
using impactlab::testing::SolveWithBlocksAndDense;

namespace {

constexpr double kDt = 5e-5;  // the scenarios' step [s]

/// 16 ellipses of ellipses_multi on a tight lattice (spacing 0.1005 m against 2a = 0.1 m) contracting at 3 m/s,
/// K_N = 1e6 N/m, μ = 0.3, with Seed003's spring ("", K_T = 1e6 N/m) or a tangential law of the library.
std::shared_ptr<const PlanarEllipses> Lattice(const std::string& law) {
  ParameterSet p;
  p.Set("n", 16.0);
  p.Set("spacing", 0.1005);
  p.Set("speed", 3.0);
  p.Set("K_N", 1e6);
  if (law.empty()) {
    p.Set("K_T", 1e6);
  } else {  // the law sets the tangential stiffness: 8 G* √(R* δ) ≈ K_N at overlaps of ~1e-3 m
    p.Set("tangential_law", law);
    p.Set("G_star", 2e7);
  }
  auto system = std::dynamic_pointer_cast<const PlanarEllipses>(ModelRegistry().Get("ellipses_multi").make(p).system);
  REQUIRE(system != nullptr);
  return system;
}

/// EFDA steps until `contacts` slots overlap at once (springs and histories loaded), at most 2 000 steps.
MechanicalState InContact(const PlanarEllipses& model, int contacts) {
  Efda efda;
  MechanicalState s = model.InitialState();
  for (int i = 0; i < 2000; ++i) {
    REQUIRE(efda.Step(model, s, kDt).status == StepStatus::kAccepted);
    if (efda.last_step().active_contacts >= contacts) return s;
  }
  FAIL("the lattice did not reach ", contacts, " contacts");
  return s;
}

/// The explicit predictor q_n + h v_n (the step's other end, near the answer).
Eigen::VectorXd Predictor(const MechanicalState& s) { return s.q + kDt * s.v; }

double MaxAbs(const Eigen::VectorXd& x) { return x.lpNorm<Eigen::Infinity>(); }

}  // namespace

TEST_CASE("planar ellipses: the slot blocks equal the dense forward difference of the step force") {
  for (const std::string law : {"", "mindlin_integral"}) {
    const auto model = Lattice(law);
    const MechanicalState s = InContact(*model, 4);
    const Eigen::VectorXd q1 = Predictor(s);
    const double motion = MaxAbs(q1 - s.q) + kDt * MaxAbs(s.v);
    for (const DiscreteGradientForm form : {DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kMidpoint,
                                            DiscreteGradientForm::kCartesian}) {
      const BlocksAgainstDense c = CompareBlocksWithDense(*model, s, q1, kDt, form, motion);
      MESSAGE("law '", law, "', form ", static_cast<int>(form), ": ", c.entries, " block entries, max |dF/dq| ",
              c.largest, ", max |blocks - dense| ", c.difference);
      CHECK(c.largest > 1e5);  // the stiff contacts are in the step: a missing block would show at this scale
      // The same forward differences with the same steps; they differ in the round-off of the differenced sums
      // (the whole step force against one slot's), ~ε |F̄| / e relative to |dF/dq|.
      CHECK(c.difference <= 1e-5 * c.largest);
    }
  }
}

TEST_CASE("planar ellipses: a midpoint contact step with the slot blocks is the dense forward difference's step") {
  for (const std::string law : {"", "mindlin_integral"}) {
    const auto model = Lattice(law);
    const MechanicalState s = InContact(*model, 4);
    for (const NewtonLinearSolver linear : {NewtonLinearSolver::kDirect, NewtonLinearSolver::kAuto})
      for (const DiscreteGradientForm form : {DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kMidpoint}) {
        NewtonOptions o;
        o.linear_solver = linear;
        const BlocksAndDenseStep r = SolveWithBlocksAndDense(*model, s, Predictor(s), kDt, form, o);
        REQUIRE(r.sparse.converged);
        REQUIRE(r.dense.converged);
        const double dq = MaxAbs(r.q_sparse - r.q_dense) / MaxAbs(r.q_dense);
        MESSAGE("law '", law, "', linear solver ", static_cast<int>(linear), ", form ", static_cast<int>(form),
                ": Newton iterations ", r.sparse.iterations, " / ", r.dense.iterations, ", relative difference in q ",
                dq, ", step-force evaluations ", r.sparse_evaluations, " / ", r.dense_evaluations);
        CHECK(r.sparse.iterations == r.dense.iterations);
        CHECK(r.sparse.iterations >= 1);
        CHECK(dq <= 1e-12);
        CHECK(r.sparse_evaluations < r.dense_evaluations / 5);  // no column-by-column F̄ over the 48 unknowns
      }
  }
}
