// `impactlab list [--json]`: integrators (with declared traits), normal laws, damping laws, models.
// `impactlab list --matrix [--json | --markdown]`: the integrator × model matrix, each pair tried in code
// (registry/integrator_model_matrix.h), every n/a with its reason.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/errors.h"
#include "core/parameter_set.h"
#include "registry/integrator_model_matrix.h"
#include "registry/registries.h"

namespace impactlab::cli {

namespace {

int PrintMatrix(bool json, bool markdown) {
  const std::vector<MatrixCell> cells = IntegratorModelMatrix();
  if (markdown) {  // the table of README.md ("Which integrator runs on which model")
    const auto models = ModelRegistry().names();
    std::cout << "| integrator |";
    for (const auto& m : models) std::cout << " " << m << " |";
    std::cout << "\n|---|";
    for (size_t m = 0; m < models.size(); ++m) std::cout << "---|";
    std::cout << "\n";
    size_t i = 0;
    for (const auto& integrator : IntegratorRegistry().names()) {
      std::cout << "| " << integrator << " |";
      for (size_t m = 0; m < models.size(); ++m, ++i) std::cout << (cells[i].runs ? " ok |" : " n/a |");
      std::cout << "\n";
    }
    return 0;
  }
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : cells)
      out.push_back({{"integrator", c.integrator}, {"model", c.model}, {"runs", c.runs}, {"reason", c.reason}});
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  const auto models = ModelRegistry().names();
  const auto integrators = IntegratorRegistry().names();
  size_t width = 0;  // the longest integrator name, so that no name is cut
  for (const auto& integrator : integrators) width = std::max(width, integrator.size());
  std::cout << "integrator x model (ok = runs; n/a reasons below)\n" << std::string(width, ' ');
  for (size_t m = 0; m < models.size(); ++m) std::cout << (m < 10 ? "  m" : " m") << m;
  std::cout << "\n";
  size_t i = 0;
  for (const auto& integrator : integrators) {
    std::string row = integrator;
    row.resize(width, ' ');
    std::cout << row;
    for (size_t m = 0; m < models.size(); ++m, ++i) std::cout << (cells[i].runs ? "  ok" : "  --");
    std::cout << "\n";
  }
  for (size_t m = 0; m < models.size(); ++m) std::cout << "m" << m << " = " << models[m] << "\n";
  std::cout << "n/a:\n";
  for (const auto& c : cells)
    if (!c.runs) std::cout << "  " << c.integrator << " on " << c.model << ": " << c.reason << "\n";
  return 0;
}

}  // namespace

void AddListCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("list", "list integrators, contact laws and models");
  auto json_flag = std::make_shared<bool>(false);
  auto matrix_flag = std::make_shared<bool>(false);
  auto markdown_flag = std::make_shared<bool>(false);
  sub->add_flag("--json", *json_flag, "print JSON");
  sub->add_flag("--matrix", *matrix_flag, "the integrator x model matrix (each pair tried; n/a with the reason)");
  sub->add_flag("--markdown", *markdown_flag, "with --matrix: the matrix as a Markdown table (README.md)");
  sub->callback([&action, json_flag, matrix_flag, markdown_flag] {
    action = [json_flag, matrix_flag, markdown_flag] {
      if (*markdown_flag && !*matrix_flag) throw InvalidParameter("--markdown", "set", "only with --matrix");
      if (CheckOnly()) return 0;  // no input to validate
      if (*matrix_flag) return PrintMatrix(*json_flag, *markdown_flag);
      nlohmann::json out;
      out["integrators"] = nlohmann::json::array();
      for (const auto& [name, entry] : IntegratorRegistry().entries()) {
        const auto integrator = entry.make(ParameterSet{});
        const IntegratorTraits t = integrator->traits();
        out["integrators"].push_back({{"name", name}, {"summary", entry.summary}, {"order", t.order},
                                      {"implicit", t.implicit}, {"symplectic", t.symplectic},
                                      {"conserves_energy", t.conserves_energy},
                                      {"conserves_momentum", t.conserves_momentum}, {"adaptive", t.adaptive},
                                      {"locates_events", t.locates_events},
                                      {"dense_matrices", t.dense_matrices}, {"library", t.library},
                                      {"reference", t.reference}, {"damping_treatment", t.damping_treatment}});
      }
      auto simple = [](const auto& registry) {
        nlohmann::json arr = nlohmann::json::array();
        for (const auto& [name, entry] : registry.entries()) arr.push_back({{"name", name}, {"summary", entry.summary}});
        return arr;
      };
      out["normal_laws"] = simple(NormalLawRegistry());
      out["damping_laws"] = simple(DampingLawRegistry());
      out["models"] = simple(ModelRegistry());
      if (*json_flag) {
        std::cout << out.dump(2) << "\n";
        return 0;
      }
      for (const char* section : {"integrators", "normal_laws", "damping_laws", "models"}) {
        std::cout << section << ":\n";
        for (const auto& e : out[section]) {
          std::cout << "  " << e["name"].get<std::string>();
          if (e.contains("order")) std::cout << " (order " << e["order"].get<int>() << ")";
          std::cout << " - " << e["summary"].get<std::string>() << "\n";
        }
      }
      return 0;
    };
  });
}

}  // namespace impactlab::cli
