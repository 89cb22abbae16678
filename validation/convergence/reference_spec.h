// A named numerical reference for error measurements (`impactlab sweep --reference`, `impactlab converge
// --reference`, `impactlab workprecision --reference`):
//
//   "NAME[:key=value[:key=value]...]"   e.g. "cvode_bdf:cvode_rtol=1e-12:cvode_atol=1e-18", "rk4:dt=1e-9",
//                                        "exact" (Feng's exact stepper, power-law oscillators only)
//
// NAME is a registered integrator; each key=value is a scenario override applied to the reference run only
// (parsed exactly like --set), so the reference is the same physical problem solved more accurately; for an
// adaptive NAME, "rtol" and "atol" stand for its tolerance keys ("cvode_bdf:rtol=1e-12" = cvode_rtol). The
// text itself is the reference's name in every output file.
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace impactlab {

struct ReferenceSpec {
  std::string text;                    ///< as given (the reference's name in outputs)
  std::string integrator;              ///< registered integrator name
  std::vector<std::string> overrides;  ///< "key=value" scenario overrides of the reference run
};

/// Parses the text above; InvalidParameter naming `option` for an empty name, an unknown integrator (with
/// the valid names) or a malformed override.
ReferenceSpec ParseReferenceSpec(const std::string& text, const std::string& option = "--reference");

/// `scenario` with the reference's overrides applied.
Scenario ReferenceScenario(const Scenario& scenario, const ReferenceSpec& reference);

}  // namespace impactlab
