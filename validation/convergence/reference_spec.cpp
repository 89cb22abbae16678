#include "convergence/reference_spec.h"

#include <sstream>

#include "convergence/error_ladder.h"
#include "core/errors.h"
#include "registry/registries.h"

namespace impactlab {

ReferenceSpec ParseReferenceSpec(const std::string& text, const std::string& option) {
  ReferenceSpec r;
  r.text = text;
  std::stringstream ss(text);
  std::string part;
  bool first = true;
  while (std::getline(ss, part, ':')) {
    if (first) {
      r.integrator = part;
      first = false;
      continue;
    }
    if (part.find('=') == std::string::npos || part.front() == '=')
      throw InvalidParameter(option, "\"" + text + "\"", "NAME[:key=value]... (\"" + part + "\" is not key=value)");
    r.overrides.push_back(part);
  }
  if (r.integrator.empty()) throw InvalidParameter(option, "\"" + text + "\"", "NAME[:key=value]..., NAME an integrator");
  (void)IntegratorRegistry().Get(r.integrator);  // unknown name: InvalidParameter listing the valid ones
  // "rtol=…" / "atol=…" name the tolerance keys of an adaptive reference (cvode_rtol, rk_rtol, ...)
  for (auto& o : r.overrides) {
    const std::string key = o.substr(0, o.find('='));
    if (key != "rtol" && key != "atol") continue;
    std::pair<std::string, std::string> keys;
    try {
      keys = ToleranceKeys(r.integrator);
    } catch (const InvalidParameter&) {
      throw InvalidParameter(option, "\"" + text + "\"",
                             "rtol / atol only with an adaptive reference: dopri5, rkf78, cvode_bdf (use dt=... for " +
                                 r.integrator + ")");
    }
    o = (key == "rtol" ? keys.first : keys.second) + o.substr(o.find('='));
  }
  return r;
}

Scenario ReferenceScenario(const Scenario& scenario, const ReferenceSpec& reference) {
  Scenario s = scenario;
  for (const auto& o : reference.overrides) ApplyOverride(s, o);
  return s;
}

}  // namespace impactlab
