#include "convergence/reference_spec.h"

#include <sstream>

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
  return r;
}

Scenario ReferenceScenario(const Scenario& scenario, const ReferenceSpec& reference) {
  Scenario s = scenario;
  for (const auto& o : reference.overrides) ApplyOverride(s, o);
  return s;
}

}  // namespace impactlab
