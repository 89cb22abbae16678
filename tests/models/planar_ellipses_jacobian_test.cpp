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
using impactlab::testing::DenseFromBlocks;
using impactlab::testing::DenseStepForceDifference;
using impactlab::testing::WithoutBlocks;

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
      std::size_t entries = 0;
      const Eigen::MatrixXd jb = DenseFromBlocks(*model, s, q1, kDt, form, motion, entries);
      const Eigen::MatrixXd jd = DenseStepForceDifference(*model, s, q1, kDt, form, motion);
      const double largest = jd.lpNorm<Eigen::Infinity>();
      const double difference = (jb - jd).lpNorm<Eigen::Infinity>();
      MESSAGE("law '", law, "', form ", static_cast<int>(form), ": ", entries, " block entries, max |dF/dq| ",
              largest, ", max |blocks - dense| ", difference);
      CHECK(largest > 1e5);  // the stiff contacts are in the step: a missing block would show at this scale
      // The same forward differences with the same steps; they differ in the round-off of the differenced sums
      // (the whole step force against one slot's), ~ε |F̄| / e relative to |dF/dq|.
      CHECK(difference <= 1e-5 * largest);
    }
  }
}

TEST_CASE("planar ellipses: a midpoint contact step with the slot blocks is the dense forward difference's step") {
  for (const std::string law : {"", "mindlin_integral"}) {
    const auto model = Lattice(law);
    const WithoutBlocks<PlanarEllipses> dense_model(*model);
    const MechanicalState s = InContact(*model, 4);
    for (const NewtonLinearSolver linear : {NewtonLinearSolver::kDirect, NewtonLinearSolver::kAuto})
      for (const DiscreteGradientForm form : {DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kMidpoint}) {
        NewtonOptions o;
        o.linear_solver = linear;
        Eigen::VectorXd q_sparse = Predictor(s), q_dense = q_sparse;
        DiscreteContactStep sparse_step, dense_step;
        long sparse_evaluations = 0, dense_evaluations = 0;
        const NewtonReport rs =
            SolveDiscreteContactStep(*model, s, q_sparse, kDt, form, o, sparse_step, sparse_evaluations);
        const NewtonReport rd =
            SolveDiscreteContactStep(dense_model, s, q_dense, kDt, form, o, dense_step, dense_evaluations);
        REQUIRE(rs.converged);
        REQUIRE(rd.converged);
        const double dq = MaxAbs(q_sparse - q_dense) / MaxAbs(q_dense);
        MESSAGE("law '", law, "', linear solver ", static_cast<int>(linear), ", form ", static_cast<int>(form),
                ": Newton iterations ", rs.iterations, " / ", rd.iterations, ", relative difference in q ", dq,
                ", step-force evaluations ", sparse_evaluations, " / ", dense_evaluations);
        CHECK(rs.iterations == rd.iterations);
        CHECK(rs.iterations >= 1);
        CHECK(dq <= 1e-12);
        CHECK(sparse_evaluations < dense_evaluations / 5);  // no column-by-column F̄ over the 48 unknowns
      }
  }
}
