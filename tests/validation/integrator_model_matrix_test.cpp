// The integrator × model matrix (registry/integrator_model_matrix.h, `impactlab list --matrix`): every implicit and
// energy-consistent scheme advances every contact model whose coordinates satisfy q̇ = v with a constant mass
// matrix; the only n/a cells are Feng's exact stepper (the 1-D power-law oscillator only) and the 3-D ellipsoid and
// free rigid body (unit quaternions), each with its reason; the rotation scheme lie_poisson_midpoint runs on the
// free rigid body and ellipsoid_wall_3d. A law a model's geometry cannot use is one line naming model, law
// and why, exit 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "registry/integrator_model_matrix.h"
#include "registry/registries.h"
#include "support/run_impactlab.h"

using namespace impactlab;

TEST_CASE("matrix: implicit and conserving schemes run on every contact model, n/a cells carry their reason") {
  const std::set<std::string> implicit = {"simo_tarnow", "gonzalez_dg", "gonzalez_dg_invariant", "efda",
                                          "implicit_midpoint", "trapezoidal", "newmark", "hht_alpha",
                                          "generalized_alpha"};
  const std::set<std::string> models = {"contact_oscillator", "two_body", "bead_chain", "disk_cloud", "ellipsoid_wall",
                                        "sphere_wall", "sphere_pair", "ellipse_box", "ellipses_multi"};
  int checked = 0;
  for (const MatrixCell& c : IntegratorModelMatrix()) {
    CAPTURE(c.integrator);
    CAPTURE(c.model);
    CAPTURE(c.reason);
    CHECK(c.runs == c.reason.empty());
    if (implicit.count(c.integrator) && models.count(c.model)) {
      CHECK(c.runs);
      ++checked;
    }
    if ((c.model == "ellipsoid_wall_3d" || c.model == "free_rigid_body") && implicit.count(c.integrator)) {
      CHECK_FALSE(c.runs);
      CHECK(c.reason.find("quaternion") != std::string::npos);
    }
    // The rotation scheme (docs/rotation.md): on the free body and the 3-D ellipsoid against the wall (a single
    // rigid body in quaternions), elsewhere refused with why.
    if (c.integrator == "lie_poisson_midpoint") {
      CHECK(c.runs == (c.model == "free_rigid_body" || c.model == "ellipsoid_wall_3d"));
      if (!c.runs) CHECK(c.reason.find("single rigid body in quaternion coordinates") != std::string::npos);
    }
    if (c.integrator == "exact") CHECK(c.runs == (c.model == "contact_oscillator"));
  }
  CHECK(checked == static_cast<int>(implicit.size() * models.size()));
}

TEST_CASE("matrix: list --matrix --json on the real binary") {
  const auto o = test::RunImpactlab("list --matrix --json");
  REQUIRE(o.status == 0);
  const nlohmann::json j = nlohmann::json::parse(o.out);
  REQUIRE(j.is_array());
  bool found = false;
  int siconos_cells = 0;
  for (const auto& cell : j) {
    if (cell["integrator"] == "simo_tarnow" && cell["model"] == "sphere_wall") found = cell["runs"].get<bool>();
    // With Siconos (docs/nonsmooth-peers.md): Moreau-Jean runs the sphere assembly's declared frictional contacts;
    // event-driven is n/a there because the registered example has mu = 0.3, and says why.
    if (cell["model"] != "sphere_assembly") continue;
    CAPTURE(cell.dump());
    if (cell["integrator"] == "siconos_moreau_jean") {
      CHECK(cell["runs"].get<bool>());
      ++siconos_cells;
    }
    if (cell["integrator"] == "siconos_event_driven") {
      CHECK_FALSE(cell["runs"].get<bool>());
      CHECK(cell["reason"].get<std::string>().find("Coulomb friction") != std::string::npos);
      ++siconos_cells;
    }
  }
  CHECK(found);
  const bool with_siconos = std::any_of(j.begin(), j.end(), [](const nlohmann::json& cell) {
    return cell["integrator"] == "siconos_moreau_jean";
  });
  CHECK(siconos_cells == (with_siconos ? 2 : 0));
}

TEST_CASE("matrix: the text form names every integrator in full, --markdown gives README's table") {
  const auto o = test::RunImpactlab("list --matrix");
  REQUIRE(o.status == 0);
  const auto names = IntegratorRegistry().names();
  const auto models = ModelRegistry().names();
  for (const auto& name : names) CHECK(o.out.find("\n" + name + " ") != std::string::npos);
  const auto md = test::RunImpactlab("list --matrix --markdown");
  REQUIRE(md.status == 0);
  CHECK(md.out.find("| integrator | " + models.front() + " |") != std::string::npos);
  CHECK(md.out.find("| simo_tarnow |") != std::string::npos);
  CHECK(md.out.find("| exact | n/a | ok |") != std::string::npos);  // bead_chain, contact_oscillator
  size_t rows = 0;
  for (size_t p = md.out.find("\n| "); p != std::string::npos; p = md.out.find("\n| ", p + 1)) ++rows;
  CHECK(rows == names.size());  // one row per integrator after the header line
  const auto bad = test::RunImpactlab("list --markdown");
  CHECK(bad.status == 2);
  CHECK(bad.out.find("--markdown") != std::string::npos);
}

TEST_CASE("a law the model's geometry cannot use is one line naming model, law and why, exit 2") {
  const auto o = test::RunImpactlab("run " + std::string(IMPACTLAB_SOURCE_DIR) +
                                    "/validation/scenarios/hertz_impact.toml --set tangential_law=mindlin_integral");
  CHECK(o.status == 2);
  CHECK(o.out.find("tangential_law") != std::string::npos);
  CHECK(o.out.find("contact_oscillator") != std::string::npos);
  CHECK(o.out.find("no tangential direction") != std::string::npos);
  const auto e = test::RunImpactlab("run " + std::string(IMPACTLAB_SOURCE_DIR) +
                                    "/validation/scenarios/ellipsoid_wall.toml --set normal_law=hertz");
  CHECK(e.status == 2);
  CHECK(e.out.find("ellipsoid_wall") != std::string::npos);
  CHECK(e.out.find("volume") != std::string::npos);
  // The planar ellipses take a tangential law, but not the spring's K_T with it, and no other normal law.
  const auto k = test::RunImpactlab("run " + std::string(IMPACTLAB_SOURCE_DIR) +
                                    "/validation/scenarios/ellipse_box.toml --set tangential_law=mindlin_integral");
  CHECK(k.status == 2);
  CHECK(k.out.find("K_T") != std::string::npos);
  CHECK(k.out.find("ellipse_box") != std::string::npos);
  CHECK(k.out.find("mindlin_integral") != std::string::npos);
  CHECK(k.out.find("tangential stiffness") != std::string::npos);
  CHECK(std::count(k.out.begin(), k.out.end(), '\n') == 1);
  const auto n = test::RunImpactlab("run " + std::string(IMPACTLAB_SOURCE_DIR) +
                                    "/validation/scenarios/ellipses_multi_mindlin.toml --set normal_law=hertz");
  CHECK(n.status == 2);
  CHECK(n.out.find("ellipses_multi") != std::string::npos);
  CHECK(n.out.find("penalty") != std::string::npos);
}
