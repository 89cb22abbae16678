// `impactlab list [--json]`: integrators (with declared traits), normal laws, damping laws, models.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/parameter_set.h"
#include "registry/registries.h"

namespace impactlab::cli {

void AddListCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("list", "list integrators, contact laws and models");
  auto json_flag = std::make_shared<bool>(false);
  sub->add_flag("--json", *json_flag, "print JSON");
  sub->callback([&action, json_flag] {
    action = [json_flag] {
      if (CheckOnly()) return 0;  // no input to validate
      nlohmann::json out;
      out["integrators"] = nlohmann::json::array();
      for (const auto& [name, entry] : IntegratorRegistry().entries()) {
        const auto integrator = entry.make(ParameterSet{});
        const IntegratorTraits t = integrator->traits();
        out["integrators"].push_back({{"name", name}, {"summary", entry.summary}, {"order", t.order},
                                      {"implicit", t.implicit}, {"symplectic", t.symplectic},
                                      {"conserves_energy", t.conserves_energy},
                                      {"conserves_momentum", t.conserves_momentum}, {"adaptive", t.adaptive},
                                      {"locates_events", t.locates_events}, {"library", t.library},
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
