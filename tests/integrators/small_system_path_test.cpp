// The small-system path of the midpoint schemes (ImplicitSchemeOptions::small_system_path,
// integrators/midpoint_family_integrator.h): on every validation scenario whose model has at most 3 unknowns and a
// contact-term force (pair-potential structure), Simo–Tarnow and the invariant discrete gradient give bitwise the same
// states, step results and counts with the fixed-size path as with the generic one, step by step, undamped and damped,
// through contact, release and rejected steps; the path is taken for N = 1, 2 and 3. The fixed-size evaluation of F̄
// leaves out the model's broad phase and gives the bits of the generic evaluation, which uses it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "contact/damping/viscous_dampers.h"
#include "contact/power_law.h"
#include "integrators/contact_term_discrete_force.h"
#include "integrators/invariant_discrete_gradient.h"
#include "integrators/simo_tarnow.h"
#include "registry/registries.h"
#include "scenario/scenario.h"
#include "state/same_bits.h"
#include "support/contact_terms.h"
#include "system/discrete_contact_system.h"
#include "system/pair_potential_structure.h"

using namespace impactlab;

namespace {

std::unique_ptr<MidpointFamilyIntegrator> Make(const std::string& scheme, bool small_path, int max_iterations) {
  ImplicitSchemeOptions o;
  o.small_system_path = small_path;
  o.newton.max_iterations = max_iterations;
  if (scheme == "simo_tarnow") return std::make_unique<SimoTarnow>(o);
  return std::make_unique<InvariantDiscreteGradient>(o);
}

struct Comparison {
  long steps = 0, rejected = 0, small_steps = 0;
  bool same = true;
  std::string first_difference;
};

// `steps` steps of dt (a rejected step is retried at dt/2 by both, as a caller would) with both paths side by side.
Comparison Compare(const MechanicalSystem& system, const std::string& scheme, double dt, long steps,
                   int max_iterations) {
  auto fixed = Make(scheme, true, max_iterations), generic = Make(scheme, false, max_iterations);
  MechanicalState a = system.InitialState(), b = system.InitialState();
  Comparison c;
  double h = dt;
  for (long k = 0; k < steps && c.same; ++k) {
    const StepResult ra = fixed->Step(system, a, h), rb = generic->Step(system, b, h);
    ++c.steps;
    const bool same = ra.status == rb.status && ra.newton_iterations == rb.newton_iterations &&
                      SameBits(ra.residual_norm, rb.residual_norm) && ra.cause == rb.cause &&
                      ra.message == rb.message &&
                      SameBits(a.q, b.q) && SameBits(a.v, b.v) && SameBits(a.t, b.t) &&
                      SameBits(a.dissipated, b.dissipated);
    if (!same) {
      c.same = false;
      c.first_difference = "step " + std::to_string(k) + " t = " + std::to_string(b.t);
    }
    if (rb.status != StepStatus::kAccepted) {
      ++c.rejected;
      h *= 0.5;
    } else {
      h = dt;
    }
  }
  const StepStatistics sa = fixed->statistics(), sb = generic->statistics();
  if (c.same && (sa.newton_iterations != sb.newton_iterations || sa.jacobian_evaluations != sb.jacobian_evaluations ||
                 sa.rhs_evaluations != sb.rhs_evaluations)) {
    c.same = false;
    c.first_difference = "statistics";
  }
  c.small_steps = fixed->small_system_steps();
  CHECK(generic->small_system_steps() == 0);
  return c;
}

}  // namespace

TEST_CASE("small-system path: bitwise the generic path on every scenario with at most 3 unknowns") {
  std::set<long> sizes_covered;
  int cases = 0;
  long rejected = 0;
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios"))
    if (entry.path().extension() == ".toml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  // Each file as written, and the Hertz chain at 2 and 3 beads (pair terms; N = 3).
  std::vector<std::pair<std::string, std::string>> runs;
  for (const std::string& file : files) runs.push_back({file, ""});
  const std::string chain = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/hertz_chain.toml";
  runs.push_back({chain, "num_beads=2"});
  runs.push_back({chain, "num_beads=3"});
  for (const auto& run : runs) {
    const std::string& file = run.first;  // (no structured binding: doctest's INFO captures these in a lambda)
    const std::string& override_text = run.second;
    Scenario sc = LoadScenario(file);
    if (!override_text.empty()) ApplyOverride(sc, override_text);
    // Each scenario as written, and at ten times its step (coarse steps: Newton from farther); at 30 times its step
    // with at most 2 Newton iterations, so that steps are rejected (non-convergence) and retried at half the step.
    for (const double dt_factor : {1.0, 10.0, 30.0}) {
      const int max_iterations = dt_factor == 30.0 ? 2 : NewtonOptions{}.max_iterations;
      const ModelInstance model = ModelRegistry().Get(sc.model).make(sc.parameters);
      const MechanicalSystem& system = *model.system;
      const long n = system.InitialState().q.size();
      if (n > 3 || system.InitialState().v.size() != n) continue;
      if (!dynamic_cast<const PairPotentialStructure*>(&system) || dynamic_cast<const DiscreteContactSystem*>(&system))
        continue;
      const double dt = dt_factor * sc.parameters.GetDouble("dt", 1e-5);
      const double t_end = sc.parameters.GetDouble("t_end", 2000 * dt);
      const long steps = std::min<long>(3000, static_cast<long>(std::ceil(t_end / dt)));
      for (const std::string scheme : {"simo_tarnow", "gonzalez_dg_invariant"}) {
        const Comparison c = Compare(system, scheme, dt, steps, max_iterations);
        INFO(file, " ", override_text, " ", scheme, " dt x", dt_factor, ": ", c.first_difference);
        CHECK(c.same);
        CHECK(c.small_steps > 0);
        MESSAGE(std::filesystem::path(file).filename().string(), " ", override_text, " ", scheme, " dt x", dt_factor, ": n = ", n, ", ",
                c.steps, " steps (", c.rejected, " rejected), ", c.small_steps, " on the small path");
        sizes_covered.insert(n);
        rejected += c.rejected;
        ++cases;
      }
    }
  }
  CHECK(cases >= 10);
  CHECK(rejected > 0);
  CHECK(sizes_covered.count(1) == 1);
  CHECK(sizes_covered.count(2) == 1);
  CHECK(sizes_covered.count(3) == 1);
}

TEST_CASE("small-system path: the fixed-size F̄ without the broad phase is the generic F̄ with it, bit for bit") {
  // Three beads on a line (N = 3) with walls, six terms; the structure's broad phase (CandidateTermsBetween)
  // returns the terms with δ > 0 at q₀ or q₁, as its contract asks. The generic evaluation sums over that subset, the
  // fixed-size one over every term: the terms left out must add nothing, not even a signed zero.
  struct Terms final : PairPotentialStructure {
    std::vector<ContactTerm> terms;
    mutable std::vector<int> subset;
    mutable long broad_phase_calls = 0;
    const std::vector<ContactTerm>& ContactTerms() const override { return terms; }
    const std::vector<int>* CandidateTermsBetween(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) const override {
      ++broad_phase_calls;
      subset.clear();
      for (size_t k = 0; k < terms.size(); ++k)
        if (ContactOverlap(terms[k], q0) > 0.0 || ContactOverlap(terms[k], q1) > 0.0)
          subset.push_back(static_cast<int>(k));
      return &subset;
    }
  } s;
  const auto wall = [](Eigen::Index coordinate, double sign, double offset) {
    return testing::WallTerm(coordinate, sign, offset, std::make_shared<HertzLaw>(2.0e5),
                             std::make_shared<TsujiDamping>(0.4, 1.0, 2.0e5, 1.5));
  };
  // Displacements from touching reference positions (offset 1 = R).
  const auto pair = [](Eigen::Index a, Eigen::Index b) {
    return testing::PairTerm(a, b, 1, 1.0, std::make_shared<HertzLaw>(3.0e5), std::make_shared<NoDamping>(),
                             Eigen::VectorXd::Constant(1, 1.0));
  };
  // Bead 1 takes up to three terms (two pairs and a wall), so the order of summation shows in its bits; the last
  // wall never touches.
  s.terms = {wall(0, -1.0, 0.0), pair(0, 1), wall(1, -1.0, 0.0), pair(1, 2), wall(2, 1.0, 0.0), wall(1, -1.0, -1.5)};
  StepStartMemo memo;
  std::mt19937_64 rng(20261207);
  std::uniform_real_distribution<double> u(-1e-4, 1e-4);
  long left_out = 0;
  for (int k = 0; k < 3000; ++k) {
    const Eigen::Vector3d q0(u(rng), u(rng), u(rng)), q1(u(rng), u(rng), u(rng));
    for (auto form : {DiscreteGradientForm::kGapQuotient, DiscreteGradientForm::kInvariantQuotient}) {
      DiscreteForceEvaluation generic;
      NewtonJacobian jg;
      jg.accepts_small = true;  // the dense form, summed as the fixed-size one is
      const long calls = s.broad_phase_calls;
      EvaluateContactTermDiscreteForce(s, form, Eigen::VectorXd(q0), Eigen::VectorXd(q1), 1e-5, generic, &jg);
      REQUIRE(s.broad_phase_calls == calls + 1);  // the generic evaluation used the broad phase
      left_out += static_cast<long>(s.terms.size() - s.subset.size());
      memo.Reset(s.terms.size());
      SmallDiscreteForce<3> fixed;
      Eigen::Matrix3d jf;
      EvaluateContactTermDiscreteForce<3>(s, form, Eigen::VectorXd(q0), q1, 1e-5, fixed, &jf, &memo);
      CHECK(s.broad_phase_calls == calls + 1);  // the fixed-size one did not
      for (int i = 0; i < 3; ++i) {
        CHECK(SameBits(fixed.force[i], generic.force[i]));
        for (int j = 0; j < 3; ++j) CHECK(SameBits(jf(i, j), jg.small(i, j)));
      }
      CHECK(SameBits(fixed.dissipation, generic.dissipation));
      CHECK(SameBits(fixed.scale, generic.scale));
    }
  }
  CHECK(left_out > 1000);  // the broad phase did leave terms out
}
