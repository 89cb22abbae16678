// Fault tests (docs/reliability.md): every class of bad input and numerical fault, fed to the real binary,
// checking the exit code (2 bad input, 3 numerical failure, 0 for a warning) and that the one-line message
// names the key, the value and the valid range (or the limit that was crossed).
#include <doctest/doctest.h>

#include "support/run_impactlab.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using Output = impactlab::test::CliOutput;
Output Run(const std::string& args) { return impactlab::test::RunImpactlab(args); }

const std::string kScenarios = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/";
// Short runs: every case below is an input error (no run at all) or needs only a few hundred steps.
const std::string kCone = "run " + kScenarios + "cone_p2.toml --integrator velocity_verlet";
const std::string kHertz = "run " + kScenarios + "hertz_impact.toml --integrator velocity_verlet";
const std::string kSphere = "run " + kScenarios + "sphere_wall_thornton.toml --integrator velocity_verlet";
const std::string kEllipsoid = "run " + kScenarios + "ellipsoid_wall.toml --integrator velocity_verlet";

struct Case {
  std::string name;                 // class of bad input (docs/reliability.md)
  std::string args;
  int exit_code;
  std::vector<std::string> must_contain;
};

void Check(const Case& c) {
  CAPTURE(c.name);
  CAPTURE(c.args);
  const Output o = Run(c.args);
  CAPTURE(o.out);
  CHECK(o.status == c.exit_code);
  for (const auto& s : c.must_contain) {
    CAPTURE(s);
    CHECK(o.out.find(s) != std::string::npos);
  }
  if (c.exit_code == 2 || c.exit_code == 3) {
    // one line: the error is the last line and there is exactly one "impactlab: " error line
    size_t errors = 0;
    for (size_t pos = 0; (pos = o.out.find("impactlab: error", pos)) != std::string::npos; ++pos) ++errors;
    for (size_t pos = 0; (pos = o.out.find("impactlab: numerical failure", pos)) != std::string::npos; ++pos) ++errors;
    CHECK(errors == 1);
  }
}

}  // namespace

TEST_CASE("fault: wrong type and out-of-range scenario keys name key, value and range (exit 2)") {
  const Case cases[] = {
      {"wrong type (string for a number)", kCone + " --set m=heavy", 2, {"invalid m = \"heavy\"", "valid: a number"}},
      {"wrong type (number for a string)", kCone + " --set normal_law=3", 2, {"normal_law = 3", "valid: a string"}},
      {"wrong type (list for a number)", kCone + " --set k=1,2", 2, {"k = [1, 2]", "valid: a number"}},
      {"p < 1", kCone + " --set p=0.5", 2, {"invalid p = 0.5", "valid: >= 1"}},
      {"e > 1", kCone + " --set e=1.5", 2, {"invalid e = 1.5", "valid: (0, 1]"}},
      {"e = 0", kCone + " --set e=0", 2, {"invalid e = 0", "valid: (0, 1]"}},
      {"m <= 0", kCone + " --set m=-1", 2, {"invalid m = -1", "valid: > 0"}},
      {"k <= 0", kCone + " --set k=-2", 2, {"invalid k = -2", "valid: > 0"}},
      {"v0 <= 0", kCone + " --set v0=0", 2, {"invalid v0 = 0", "valid: > 0"}},
      {"E_star <= 0", kHertz + " --set E_star=0", 2, {"invalid E_star = 0", "valid: > 0"}},
      {"radius <= 0", kSphere + " --set radius=0", 2, {"invalid radius = 0", "valid: > 0"}},
      {"density <= 0", kSphere + " --set density=-5", 2, {"invalid density = -5", "valid: > 0"}},
      {"nu = 0.5", kSphere + " --set poisson=0.5", 2, {"invalid nu_sphere = 0.5", "valid: [0, 0.5)"}},
      {"nu < 0", kSphere + " --set poisson=-0.1", 2, {"invalid nu_sphere = -0.1", "valid: [0, 0.5)"}},
      {"mu < 0", kSphere + " --set mu=-0.1", 2, {"invalid mu = -0.1", "valid: >= 0"}},
      {"e_n out of range", kSphere + " --set e_n=1.2", 2, {"invalid e_n = 1.2", "valid: (0, 1]"}},
      {"semi-axis <= 0", kEllipsoid + " --set semi_axes=1,-0.6,0.6", 2, {"invalid semi_axes = -0.6", "> 0"}},
      {"semi-axes count", kEllipsoid + " --set semi_axes=1,0.6", 2, {"invalid semi_axes = [1, 0.6]", "three numbers"}},
      {"K_n <= 0", kEllipsoid + " --set K_n=0", 2, {"invalid K_n = 0", "valid: > 0"}},
      {"e_cn out of range", kEllipsoid + " --set e_cn=0", 2, {"invalid e_cn = 0", "valid: (0, 1]"}},
      {"mass <= 0", kEllipsoid + " --set mass=0", 2, {"invalid mass = 0", "valid: > 0"}},
      {"dt = 0 (scenario)", kCone + " --set dt=0", 2, {"invalid dt = 0", "valid: > 0"}},
      {"dt < 0 (flag)", kCone + " --dt -1", 2, {"invalid --dt = -1", "valid: > 0"}},
      {"dt = 0 (flag)", kCone + " --dt 0", 2, {"invalid --dt = 0", "valid: > 0"}},
      {"t_end <= 0", kCone + " --set t_end=-1", 2, {"invalid t_end = -1", "valid: > 0"}},
      {"max_overlap_fraction out of range", kCone + " --set max_overlap_fraction=0", 2,
       {"invalid max_overlap_fraction = 0", "valid: (0, 1]"}},
      {"max_step_halvings not an integer", kCone + " --set max_step_halvings=2.5", 2,
       {"invalid max_step_halvings = 2.5", "an integer in [0, 60]"}},
      {"rk_atol <= 0", kCone + " --set rk_atol=0", 2, {"invalid rk_atol = 0", "valid: > 0"}},
      {"cvode_rtol <= 0", kCone + " --set cvode_rtol=-1", 2, {"invalid cvode_rtol = -1", "valid: > 0"}},
      {"newton_max_iterations out of range", kCone + " --set newton_max_iterations=0", 2,
       {"invalid newton_max_iterations = 0", "valid: an integer in [1, 1000]"}},
  };
  for (const auto& c : cases) Check(c);
}

TEST_CASE("fault: flags of the closed-form commands are range-checked (exit 2)") {
  const Case cases[] = {
      {"dtcrit p < 1", "dtcrit --p 0.5", 2, {"invalid p = 0.5", "valid: >= 1"}},
      {"dtcrit m <= 0", "dtcrit --p 2 --m -1", 2, {"invalid m = -1", "valid: > 0"}},
      {"exact e > 1", "exact --p 2 --e 2", 2, {"invalid e = 2", "valid: (0, 1]"}},
      {"converge unknown key", "converge " + kScenarios + "cone_p2.toml --integrator velocity_verlet --dt-min 1e-3 "
                                                          "--dt-max 1e-2 --set dtt=1",
       2, {"invalid dtt = 1", "did you mean 'dt'?"}},
      {"converge dt_max < dt_min", "converge " + kScenarios + "cone_p2.toml --integrator velocity_verlet --dt-min 1e-2 "
                                                              "--dt-max 1e-3",
       2, {"invalid --dt-min = 0.01", "valid: < --dt-max = 0.001"}},
  };
  for (const auto& c : cases) Check(c);
}

TEST_CASE("fault: unknown names are listed with the valid ones and a suggestion (exit 2)") {
  const Case cases[] = {
      {"unknown key, suggestion by case", kEllipsoid + " --set k_n=1e3", 2,
       {"invalid k_n = 1000", "a key of model \"ellipsoid_wall\"", "did you mean 'K_n'?"}},
      {"unknown key, suggestion by edit", kCone + " --set dtt=1e-3", 2, {"invalid dtt = 0.001", "did you mean 'dt'?"}},
      {"unknown key, no close match", kCone + " --set typo_key=3", 2, {"invalid typo_key = 3", "unknown keys: typo_key"}},
      {"unknown integrator", kCone + " --integrator velocty_verlet", 2,
       {"invalid integrator = \"velocty_verlet\"", "one of: ", "cvode_bdf", "did you mean 'velocity_verlet'?"}},
      {"unknown model", kCone + " --set model=contact_oscilator", 2,
       {"invalid model = \"contact_oscilator\"", "sphere_wall", "did you mean 'contact_oscillator'?"}},
      {"unknown normal law", kCone + " --set normal_law=powerlaw", 2,
       {"invalid normal_law = \"powerlaw\"", "hertz", "did you mean 'power_law'?"}},
      {"unknown damping law", kCone + " --set damping=tsuij", 2,
       {"invalid damping = \"tsuij\"", "linear_viscous", "did you mean 'tsuji'?"}},
      {"unknown tangential law", kSphere + " --set tangential_law=mindlin_integrl", 2,
       {"invalid tangential_law = \"mindlin_integrl\"", "cundall_strack", "did you mean 'mindlin_integral'?"}},
      {"unknown study", "validate --quick --only no_such_study_xyz --out " +
                            (std::filesystem::temp_directory_path() / "impactlab_fault_validate").string(),
       2, {"invalid --only = \"no_such_study_xyz\"", "a pattern matching a study name: "}},
  };
  for (const auto& c : cases) Check(c);
}

TEST_CASE("fault: malformed TOML, missing file, bad CLI flags") {
  const std::filesystem::path bad_toml = std::filesystem::temp_directory_path() / "impactlab_fault_malformed.toml";
  {
    std::ofstream f(bad_toml);
    f << "model = \"contact_oscillator\"\nk = = 3\n";
  }
  const std::filesystem::path typo_toml = std::filesystem::temp_directory_path() / "impactlab_fault_typo.toml";
  {
    std::ofstream f(typo_toml);
    f << "model = \"contact_oscillator\"\nnormal_law = \"power_law\"\nK = 1.0\np = 2.0\nt_end = 1.0\ndt = 1e-3\n";
  }
  Check({"misspelt required key", "run " + typo_toml.string(), 2,
         {"invalid k = <missing>", "a number (required key)", "unknown key 'K': did you mean 'k'?"}});
  Check({"malformed TOML", "run " + bad_toml.string(), 2, {"scenario", "valid"}});
  Check({"missing file", "run /nonexistent/impactlab_missing.toml", 2, {"scenario", "/nonexistent/impactlab_missing.toml"}});
  // CLI11 rejects a flag value of the wrong type or an unknown flag itself: non-zero, names the flag.
  const Output wrong_type = Run(kCone + " --dt fast");
  CHECK(wrong_type.status != 0);
  CHECK(wrong_type.status < 128);
  CHECK(wrong_type.out.find("--dt") != std::string::npos);
  const Output unknown_flag = Run(kCone + " --dtt 1");
  CHECK(unknown_flag.status != 0);
  CHECK(unknown_flag.status < 128);
  CHECK(unknown_flag.out.find("--dtt") != std::string::npos);
}

TEST_CASE("fault: numerical guards (dt above the stability estimate, NaN, Newton, unphysical overlap)") {
  // cone_p2 (p = 2, m = k = v0 = 1, e = 0.5): estimated Δt_crit = 1.0673 s (tangent stiffness at the undamped
  // δ_max = 1.5^(1/3), times Belytschko's factor √(1+ζ²) − ζ = 0.807 for ζ = ξ_L(0.5) = 0.2155); dt = 1.5 is
  // above it, dt = 1 below.
  Check({"dt above critical: warning, run continues (its energy gain accepted)", kCone + " --dt 1.5 --allow-unstable", 0,
         {"impactlab: warning: dt = 1.5 is above the estimated stability limit 1.067346", "explicit 'velocity_verlet'"}});
  Check({"dt above critical: the run gains energy, flagged unstable", kCone + " --dt 1.5", 3,
         {"impactlab: warning: dt = 1.5 is above the estimated stability limit 1.067346",
          "numerical failure: unstable run 'velocity_verlet' (dt = 1.5 s): ", "the restitution is 1.684"}});
  Check({"dt above critical with --strict: error", kCone + " --dt 1.5 --strict", 2,
         {"invalid dt = 1.5", "valid: <= the estimated stability limit 1.067346", "(--strict)"}});
  {
    const Output o = Run(kCone + " --dt 1 --strict");
    CAPTURE(o.out);
    CHECK(o.status == 0);
    CHECK(o.out.find("stability limit") == std::string::npos);  // (3.3 steps per contact: a resolution warning)
  }
  // planar penalty model (ellipse_box: m_low = m I/(I + m a²) = 0.2248 kg, K = 1e6 N/m → 9.48e-4 s)
  Check({"dt above critical, planar penalty model",
         "run " + kScenarios + "ellipse_box.toml --integrator velocity_verlet --dt 5e-3 --strict", 2,
         {"invalid dt = 0.005", "estimated stability limit 0.000948274", "(--strict)"}});
  // implicit schemes have no such limit: no warning
  {
    const Output o = Run("run " + kScenarios + "cone_p2.toml --integrator implicit_midpoint --dt 1 --strict");
    CAPTURE(o.out);
    CHECK(o.status == 0);
    CHECK(o.out.find("stability limit") == std::string::npos);
  }
  // the shipped scenario at its own dt: no warning
  {
    const Output o = Run(kHertz);
    CAPTURE(o.out);
    CHECK(o.status == 0);
    CHECK(o.out.find("warning") == std::string::npos);
  }
  Check({"NaN/Inf from a too-large dt", kCone + " --set p=400 --dt 10 --set max_step_halvings=0", 3,
         {"impactlab: numerical failure", "cannot complete step 1 at t = 0", "non-finite", "q = [", "v = [",
          "dt = 10 is above the estimated stability limit"}});
  // with the default 20 halvings velocity Verlet recovers (sub-steps below the limit) -> warned, not silent
  Check({"NaN/Inf recovered by step halving: warning", kCone + " --set p=400 --dt 10 --allow-unstable", 0,
         {"impactlab: warning: 'velocity_verlet' rejected 20 step attempts",
          "recovered by halving them: dt = 10 is likely too large (estimated stability limit 0.0057785"}});
  // dt = 0.05 (ω h ≈ 0.07): one Newton update from the predictor cannot reach the 2.5e-16 tolerance (at the scenario's
  // dt = 1e-3 one update of the exact Jacobian does).
  Check({"Newton non-convergence", kCone + " --integrator implicit_midpoint --set newton_max_iterations=1 "
                                           "--set max_step_halvings=0 --set dt=0.05",
         3, {"impactlab: numerical failure", "Newton did not converge in 1 iterations: |r| = ", "(tol ", "likely cause"}});
  Check({"unphysical overlap: warning", kHertz + " --set max_overlap_fraction=1e-3", 0,
         {"impactlab: warning: unphysical overlap", "of the contact size 0.01 m", "max_overlap_fraction = 0.001"}});
  Check({"unphysical overlap with --strict: failure", kHertz + " --set v0=200 --strict", 3,
         {"impactlab: numerical failure: unphysical overlap", "max_overlap_fraction = 0.1", "(--strict)"}});
}
