// Scenario: a TOML file of flat keys, parsed once at the edge into a typed ParameterSet.
//
//   model = "contact_oscillator"          which model factory builds the system (default contact_oscillator)
//   integrators = ["rk4", "cvode_bdf"]    default integrators when no --integrator is given
//   t_end, dt                             run length and (outer) step [s]
//   <model keys>                          e.g. normal_law, k, p, m, v0, damping, e (docs/scenarios.md)
//
// `--set key=value` overrides or adds any key: numbers become numbers, "a,b,c" numeric lists become lists,
// true/false become booleans, anything else a string. Malformed TOML is an InvalidParameter naming the file
// and toml11's line/column message. Before toml11 sees the text, ParseScenario rejects invalid UTF-8 (toml11 3.7
// reads out of bounds on it) and arrays / inline tables nested deeper than kMaxTomlNesting (its recursive
// descent would overflow the stack); after it, float literals that overflowed to +-DBL_MAX (docs/reliability.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/parameter_set.h"

namespace impactlab {

struct Scenario {
  std::string path;
  std::string model = "contact_oscillator";
  std::vector<std::string> integrators;
  ParameterSet parameters;  ///< every other key
};

/// Deepest nesting of [ ] / { } a scenario may use (scenarios are flat: a number list is depth 1).
inline constexpr int kMaxTomlNesting = 32;

/// Parses scenario TOML text; `source_name` names the input in errors (and becomes Scenario::path).
Scenario ParseScenario(std::string_view toml_text, std::string source_name);
/// Reads the regular file `path` and parses it (ParseScenario).
Scenario LoadScenario(const std::string& path);
/// Parses "key=value" and stores it in the scenario (model / integrators keys included).
void ApplyOverride(Scenario& scenario, const std::string& assignment);
/// Parses the value text of an override into a typed value.
ParameterSet::Value ParseOverrideValue(const std::string& text);

}  // namespace impactlab
