// CVODE's linear solver (integrators/cvode_bdf.h, scenario key cvode_linear_solver): the matrix-free GMRES path and
// the dense path integrate the same Hertz bead chain to the tolerance asked for, with the same energy balance; auto
// takes the dense solver up to kCvodeAutoDenseLimit first-order unknowns and GMRES above, and only the dense path
// declares dense whole-system matrices; a bad value names key, value and the valid values.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "core/errors.h"
#include "integrators/cvode_bdf.h"
#include "registry/registries.h"
#include "run/scenario_runner.h"

using namespace impactlab;

namespace {

MechanicalState RunChain(const MechanicalSystem& chain, const std::string& linear_solver, long& rhs) {
  ParameterSet p;
  p.Set("cvode_linear_solver", linear_solver);
  auto cvode = IntegratorRegistry().Get("cvode_bdf").make(p);
  MechanicalState s = chain.InitialState();
  for (int step = 0; step < 400; ++step) REQUIRE(cvode->Step(chain, s, 1e-6).status == StepStatus::kAccepted);
  rhs = cvode->statistics().rhs_evaluations;
  return s;
}

}  // namespace

TEST_CASE("cvode_bdf: matrix-free GMRES and the dense solver give the same chain to the tolerance") {
  // 50 beads: 101 first-order unknowns (q, v, D), above the auto limit of 64. The first bead hits the chain at
  // 1 m/s; over 400 µs the pulse runs through about a third of it.
  Scenario sc = LoadScenario(std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/hertz_chain.toml");
  ApplyOverride(sc, "num_beads=50");
  const ModelInstance chain = ModelRegistry().Get(sc.model).make(sc.parameters);
  long rhs_dense = 0, rhs_gmres = 0, rhs_auto = 0;
  const MechanicalState dense = RunChain(*chain.system, "dense", rhs_dense);
  const MechanicalState gmres = RunChain(*chain.system, "spgmr", rhs_gmres);
  const MechanicalState automatic = RunChain(*chain.system, "auto", rhs_auto);
  const double v_scale = dense.v.lpNorm<Eigen::Infinity>();
  MESSAGE("max |v_gmres − v_dense| / |v| = ", (gmres.v - dense.v).lpNorm<Eigen::Infinity>() / v_scale,
          ", right-hand sides (with the linear solver's) ", rhs_dense, " / ", rhs_gmres);
  CHECK(v_scale > 0.1);  // the pulse is in the chain
  // rtol 1e-10: both are within the solver's error of the true solution, so of one another.
  CHECK((gmres.v - dense.v).lpNorm<Eigen::Infinity>() <= 1e-8 * v_scale);  // measured 1.2e-9
  const double motion = v_scale * gmres.t;  // the largest distance a bead can have moved
  CHECK((gmres.q - dense.q).lpNorm<Eigen::Infinity>() <= 1e-8 * motion);  // measured 2.5e-13 m
  const double e0 = chain.system->KineticEnergy(chain.system->InitialState());
  auto balance = [&](const MechanicalState& s) {
    return std::abs(chain.system->KineticEnergy(s) + chain.system->PotentialEnergy(s) + s.dissipated - e0) / e0;
  };
  CHECK(balance(dense) < 1e-8);
  CHECK(balance(gmres) < 1e-8);
  // auto = GMRES here: bitwise the same run.
  CHECK(automatic.q == gmres.q);
  CHECK(automatic.v == gmres.v);
}

TEST_CASE("cvode_bdf: auto takes the dense solver only up to its limit, and only dense declares dense matrices") {
  CvodeBdf::Options o;
  CHECK(o.linear_solver == CvodeLinearSolver::kAuto);
  CHECK_FALSE(CvodeBdf(o).traits().dense_matrices);
  o.linear_solver = CvodeLinearSolver::kDense;
  CHECK(CvodeBdf(o).traits().dense_matrices);
  o.linear_solver = CvodeLinearSolver::kSpgmr;
  CHECK_FALSE(CvodeBdf(o).traits().dense_matrices);
  // Below the limit auto is the dense path: the oscillator (3 unknowns) runs bitwise as with "dense".
  ParameterSet mp;
  mp.Set("k", 1e6);
  const ModelInstance oscillator = ModelRegistry().Get("contact_oscillator").make(mp);
  MechanicalState a = oscillator.system->InitialState(), b = a;
  ParameterSet pa, pb;
  pa.Set("cvode_linear_solver", std::string("auto"));
  pb.Set("cvode_linear_solver", std::string("dense"));
  auto ia = IntegratorRegistry().Get("cvode_bdf").make(pa), ib = IntegratorRegistry().Get("cvode_bdf").make(pb);
  for (int step = 0; step < 50; ++step) {
    REQUIRE(ia->Step(*oscillator.system, a, 1e-5).status == StepStatus::kAccepted);
    REQUIRE(ib->Step(*oscillator.system, b, 1e-5).status == StepStatus::kAccepted);
  }
  CHECK(a.q == b.q);
  CHECK(a.v == b.v);
}

TEST_CASE("cvode_bdf: a bad cvode_linear_solver names key, value and the valid values") {
  ParameterSet p;
  p.Set("cvode_linear_solver", std::string("klu"));
  try {
    (void)IntegratorRegistry().Get("cvode_bdf").make(p);
    FAIL("no throw");
  } catch (const InvalidParameter& e) {
    CHECK(e.parameter() == "cvode_linear_solver");
    const std::string what = e.what();
    CHECK(what.find("klu") != std::string::npos);
    CHECK(what.find("spgmr") != std::string::npos);
  }
}
