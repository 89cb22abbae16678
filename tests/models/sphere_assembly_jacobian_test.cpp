// The sparse Newton Jacobian of the contact seam on sphere_assembly (system/discrete_contact_jacobian.h,
// integrators/midpoint_family_integrator.h): the per-contact blocks equal the dense forward difference of the whole
// step force; a midpoint contact step with the block Jacobian and one with the dense forward-difference Jacobian end
// in the same state to round-off with the same Newton iteration count (32 spheres, friction, Tsuji damping, every
// DiscreteGradientForm); the pattern and the sparse LU's symbolic analysis are kept while the contact list is
// unchanged; the blocks do not depend on the thread count; the iterative linear solvers give the same step; and
// Simo–Tarnow on the packing still closes its energy books.
#include <doctest/doctest.h>

#include <Eigen/SparseCore>
#include <cmath>
#include <cstring>
#include <string>

#include "core/contact_threads.h"
#include "core/parameter_set.h"
#include "integrators/midpoint_family_integrator.h"
#include "integrators/simo_tarnow.h"
#include "integrators/simulation.h"
#include "models/sphere_assembly.h"
#include "registry/sphere_assembly_registration.h"
#include "support/discrete_step_difference.h"

using namespace impactlab;
using impactlab::testing::BlocksAgainstDense;
using impactlab::testing::CompareBlocksWithDense;
using impactlab::testing::BlocksAndDenseStep;
using impactlab::testing::SolveWithBlocksAndDense;

namespace {

/// 4 × 4 × 2 = 32 spheres on a compressed lattice (every neighbour and wall contact overlapping), random velocities,
/// Hertz + Tsuji (e_n = 0.5) + Mindlin (μ = 0.3): 192 unknowns.
std::shared_ptr<SphereAssembly> Packing(int nx, int ny, int nz) {
  ParameterSet p;
  p.Set("nx", static_cast<double>(nx));
  p.Set("ny", static_cast<double>(ny));
  p.Set("nz", static_cast<double>(nz));
  p.Set("mu", 0.3);
  p.Set("e_n", 0.5);
  p.Set("gap", -2e-6);
  p.Set("random_speed", 0.05);
  p.Set("seed", 7.0);
  return MakeSphereAssembly(p);
}

constexpr double kDt = 2e-7;  // the scenarios' step [s]

/// A state a few steps into the run (history slots filled, the tangential springs loaded).
MechanicalState Settled(const SphereAssembly& model, int steps) {
  SimoTarnow st;
  MechanicalState s = model.InitialState();
  for (int i = 0; i < steps; ++i) REQUIRE(st.Step(model, s, kDt).status == StepStatus::kAccepted);
  return s;
}

Eigen::VectorXd Predictor(const SphereAssembly& model, const MechanicalState& s) {
  Eigen::VectorXd a(s.v.size());
  model.Acceleration(s, a);
  return s.q + kDt * s.v + (0.5 * kDt * kDt) * a;
}

double MaxAbs(const Eigen::VectorXd& x) { return x.lpNorm<Eigen::Infinity>(); }

}  // namespace

TEST_CASE("sphere_assembly: the contact blocks equal the dense forward difference of the step force") {
  const auto model = Packing(4, 4, 2);
  const MechanicalState s = Settled(*model, 3);
  const Eigen::VectorXd q1 = Predictor(*model, s);
  const double motion = MaxAbs(q1 - s.q) + kDt * MaxAbs(s.v);
  for (const DiscreteGradientForm form : {DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kMidpoint,
                                          DiscreteGradientForm::kCartesian}) {
    // Against the dense forward difference of F̄ over all 192 coordinates (what the scheme did before).
    const BlocksAgainstDense c = CompareBlocksWithDense(*model, s, q1, kDt, form, motion);
    // Why not conjugate gradients: with friction the Newton matrix is not symmetric (printed, not asserted).
    const double asymmetry = (c.blocks - c.blocks.transpose()).lpNorm<Eigen::Infinity>() / c.largest;
    MESSAGE("form ", static_cast<int>(form), ": ", c.entries, " block entries, max |dF/dq| ", c.largest,
            ", max |blocks - dense| ", c.difference, ", max |J - J^T| / max |J| ", asymmetry);
    CHECK(c.largest > 1e5);  // the contacts are stiff: a missing block would show at this scale
    // Both are forward differences with the same steps; they differ only in the round-off of the differenced sums
    // (the dense one subtracts the whole step force, the blocks one contact's): ~ε |F̄| / e relative to |dF/dq|.
    CHECK(c.difference <= 1e-5 * c.largest);
  }
}

TEST_CASE("midpoint contact step: sparse block Jacobian and dense forward difference give the same step") {
  const auto model = Packing(4, 4, 2);
  const MechanicalState s = Settled(*model, 3);
  // kDirect: the same linear solver (SparseLU) on both Jacobians; kAuto (the default): BiCGSTAB–Jacobi on the
  // blocks, SparseLU on the dense forward difference.
  for (const NewtonLinearSolver linear : {NewtonLinearSolver::kDirect, NewtonLinearSolver::kAuto})
  for (const DiscreteGradientForm form : {DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kMidpoint,
                                          DiscreteGradientForm::kCartesian}) {
    NewtonOptions o;
    o.linear_solver = linear;
    const BlocksAndDenseStep r = SolveWithBlocksAndDense(*model, s, Predictor(*model, s), kDt, form, o);
    const NewtonReport &rs = r.sparse, &rd = r.dense;
    const Eigen::VectorXd &q_sparse = r.q_sparse, &q_dense = r.q_dense;
    const DiscreteContactStep &sparse_step = r.sparse_step, &dense_step = r.dense_step;
    const long sparse_evaluations = r.sparse_evaluations, dense_evaluations = r.dense_evaluations;
    REQUIRE(rs.converged);
    REQUIRE(rd.converged);
    const Eigen::VectorXd m = model->DiscreteMassDiagonal();
    const Eigen::VectorXd v_sparse = s.v - kDt * sparse_step.force.cwiseQuotient(m);
    const Eigen::VectorXd v_dense = s.v - kDt * dense_step.force.cwiseQuotient(m);
    const double dq = MaxAbs(q_sparse - q_dense) / MaxAbs(q_dense);
    const double dz = MaxAbs(sparse_step.z_next - dense_step.z_next) / MaxAbs(dense_step.z_next);
    // Momentum: M(v_s − v_d) = −h(F̄_s − F̄_d) = −h(R_s − R_d) + (2M/h)(q_s − q_d) exactly (R = (2M/h²)(q₁ − q_n −
    // h v_n) + F̄), so the velocities may differ by what the two converged residuals and the positions' difference
    // allow, no more; the positions themselves to 1e-12 relative.
    const double dv = MaxAbs(v_sparse - v_dense);
    const double dp = MaxAbs(m.cwiseProduct(v_sparse - v_dense));
    const double p_bound =
        kDt * (rs.residual_norm + rd.residual_norm) + (2.0 / kDt) * MaxAbs(m.cwiseProduct(q_sparse - q_dense));
    MESSAGE("linear solver ", static_cast<int>(linear), ", form ", static_cast<int>(form), ": Newton iterations ",
            rs.iterations, " / ", rd.iterations,
            "; relative differences q ", dq, ", z ", dz, ", v ", dv / MaxAbs(v_dense), "; |M dv| ", dp,
            " (bound from the residuals ", p_bound, "); F-bar evaluations ", sparse_evaluations, " / ",
            dense_evaluations);
    CHECK(rs.iterations == rd.iterations);
    CHECK(rs.iterations >= 1);  // the predictor alone is not the answer: the Jacobians were used
    CHECK(dq <= 1e-12);
    CHECK(dz <= 1e-12);
    CHECK(dp <= p_bound);
    CHECK(sparse_evaluations < dense_evaluations / 10);  // the point of the blocks: no column-by-column F̄
  }
}

TEST_CASE("midpoint contact step: the block pattern and the sparse LU analysis are kept while the contacts stay") {
  const auto model = Packing(4, 4, 2);
  MechanicalState s = Settled(*model, 3);
  ContactStepWorkspace work;
  NewtonOptions o;
  o.linear_solver = NewtonLinearSolver::kDirect;  // SparseLU: its symbolic analysis is the one kept
  long evaluations = 0;
  long first_patterns = 0;
  for (int step = 0; step < 3; ++step) {
    Eigen::VectorXd q1 = Predictor(*model, s);
    DiscreteContactStep result;
    const NewtonReport r =
        SolveDiscreteContactStep(*model, s, q1, kDt, DiscreteGradientForm::kGapQuotient, o, result, evaluations, work);
    REQUIRE(r.converged);
    REQUIRE(r.iterations >= 1);
    s.v = s.v - kDt * result.force.cwiseQuotient(model->DiscreteMassDiagonal());
    s.q = q1;
    s.z = result.z_next;
    s.t += kDt;
    if (step == 0) first_patterns = work.assembler.patterns_built();
  }
  // The compressed lattice keeps its contacts over these steps: the pattern is built once in the first step (the
  // second Newton Jacobian buffer gets it copied) and only refilled afterwards; one symbolic analysis of the
  // sparse LU.
  CHECK(first_patterns == 1);
  CHECK(work.assembler.patterns_built() == first_patterns);
  CHECK(work.assembler.last_pattern_reused());
  CHECK(work.newton.sparse_analyses() == 1);
}

TEST_CASE("sphere_assembly: the contact blocks are bitwise the same on 1 and 2 threads") {
  // 13³ = 2197 spheres, ~6000 contacts: above the parallel threshold of the contact loops.
  const auto model = Packing(13, 13, 13);
  const MechanicalState s = model->InitialState();
  const Eigen::VectorXd q1 = Predictor(*model, s);
  const double motion = MaxAbs(q1 - s.q) + kDt * MaxAbs(s.v);
  SparseEntries one, two;
  SetContactThreads(1);
  model->AppendDiscreteStepJacobian(s, q1, kDt, DiscreteGradientForm::kGapQuotient, motion, one);
  SetContactThreads(2);
  model->AppendDiscreteStepJacobian(s, q1, kDt, DiscreteGradientForm::kGapQuotient, motion, two);
  SetContactThreads(1);
  const size_t blocks_144 = one.size() / 144;
  MESSAGE(blocks_144, " pair-block equivalents, contact threads available: ", ContactThreadsAvailable());
  REQUIRE(one.size() == two.size());
  CHECK(one.size() > 2048 * 36);  // at least the threshold's worth of wall blocks: the loop ran in parallel
  bool same = true;
  for (size_t k = 0; k < one.size(); ++k)
    same = same && one[k].row() == two[k].row() && one[k].col() == two[k].col() &&
           std::memcmp(&one[k].value(), &two[k].value(), sizeof(double)) == 0;
  CHECK(same);
}

TEST_CASE("midpoint contact step: BiCGSTAB (Jacobi and ILUT preconditioners) gives the direct solver's step") {
  const auto model = Packing(4, 4, 2);
  const MechanicalState s = Settled(*model, 3);
  NewtonOptions direct;
  Eigen::VectorXd q_direct = Predictor(*model, s);
  DiscreteContactStep step_direct;
  long evaluations = 0;
  const NewtonReport rd = SolveDiscreteContactStep(*model, s, q_direct, kDt, DiscreteGradientForm::kGapQuotient,
                                                   direct, step_direct, evaluations);
  REQUIRE(rd.converged);
  for (const NewtonLinearSolver kind : {NewtonLinearSolver::kBiCgStabDiagonal, NewtonLinearSolver::kBiCgStabIlut}) {
    NewtonOptions o;
    o.linear_solver = kind;
    Eigen::VectorXd q1 = Predictor(*model, s);
    DiscreteContactStep step;
    const NewtonReport r =
        SolveDiscreteContactStep(*model, s, q1, kDt, DiscreteGradientForm::kGapQuotient, o, step, evaluations);
    REQUIRE(r.converged);
    const double dq = MaxAbs(q1 - q_direct) / MaxAbs(q_direct);
    MESSAGE("linear solver ", static_cast<int>(kind), ": Newton iterations ", r.iterations, " (direct ",
            rd.iterations, "), relative q difference ", dq);
    CHECK(dq <= 1e-12);
    CHECK(r.iterations <= rd.iterations + 1);
  }
}

TEST_CASE("sphere_assembly: Simo-Tarnow on 32 spheres (sparse Newton) closes the energy books") {
  const auto model = Packing(4, 4, 2);
  SimoTarnow st;
  SimulationOptions o;
  o.dt = kDt;
  o.t_end = 40 * kDt;
  o.locate_events = false;
  const MechanicalState s0 = model->InitialState();
  const SimulationRecord r = Simulate(*model, st, s0, o, {});
  const EnergyTerms e0 = model->EnergyBooks(s0), e1 = model->EnergyBooks(r.final_state);
  const double exchanged = e0.stored[1].second;  // the initial elastic energy of the compressed lattice
  const double drift = std::abs(e1.Books() - e0.Books());
  MESSAGE("books drift ", drift, " J of ", exchanged, " J; D_n ", r.final_state.dissipated, " J, W_f ",
          e1.friction_work, " J; Newton iterations ", st.statistics().newton_iterations);
  CHECK(r.final_state.dissipated > 0.0);
  CHECK(e1.friction_work > 0.0);
  CHECK(drift < 1e-9 * exchanged);
}
