// Scenario: a TOML file of flat keys, parsed once at the edge into a typed ParameterSet.
//
//   model = "contact_oscillator"          which model factory builds the system (default contact_oscillator)
//   integrators = ["rk4", "cvode_bdf"]    default integrators when no --integrator is given
//   t_end, dt                             run length and (outer) step [s]
//   <model keys>                          e.g. normal_law, k, p, m, v0, damping, e (docs/scenarios.md)
//
// `--set key=value` overrides or adds any key: numbers become numbers, "a,b,c" numeric lists become lists,
// true/false become booleans, anything else a string. Malformed TOML is an InvalidParameter naming the file
// and toml11's line/column message.
#pragma once

#include <string>
#include <vector>

#include "core/parameter_set.h"

namespace impactlab {

struct Scenario {
  std::string path;
  std::string model = "contact_oscillator";
  std::vector<std::string> integrators;
  ParameterSet parameters;  ///< every other key
};

Scenario LoadScenario(const std::string& path);
/// Parses "key=value" and stores it in the scenario (model / integrators keys included).
void ApplyOverride(Scenario& scenario, const std::string& assignment);
/// Parses the value text of an override into a typed value.
ParameterSet::Value ParseOverrideValue(const std::string& text);

}  // namespace impactlab
