#include "registry/extension.h"

#include "core/errors.h"

namespace impactlab {

void RequireRegistrableName(const std::string& kind, const std::string& name, bool already_registered) {
  bool ok = !name.empty() && name.size() <= 64 && name[0] >= 'a' && name[0] <= 'z';
  for (char c : name) ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
  if (!ok) throw InvalidParameter(kind, "\"" + name + "\"", "1-64 characters of [a-z0-9_] starting with a letter");
  if (already_registered)
    throw InvalidParameter(kind, "\"" + name + "\"", "a name not registered yet (a registered name cannot be replaced)");
}

namespace {
template <class Factory>
void Require(const std::string& kind, const std::string& name, const Factory& make, const Registry<Factory>& r) {
  RequireRegistrableName(kind, name, r.Has(name));
  if (!make) throw InvalidParameter(kind + " factory", "empty", "a callable factory for \"" + name + "\"");
}
}  // namespace

void RegisterIntegrator(const std::string& name, const std::string& summary, IntegratorFactory make,
                        ParameterSet example) {
  Require("integrator", name, make, IntegratorRegistry());
  const auto probe = make(ParameterSet{});
  if (!probe) throw InvalidParameter("integrator factory", "null", "a factory returning an integrator for \"" + name + "\"");
  if (probe->name() != name)
    throw InvalidParameter("integrator", "\"" + name + "\"",
                           "the name the integrator reports (name() = \"" + probe->name() + "\")");
  MutableIntegratorRegistry().Add(name, summary, std::move(make), std::move(example));
}

void RegisterNormalLaw(const std::string& name, const std::string& summary, NormalLawFactory make,
                       ParameterSet example) {
  Require("normal_law", name, make, NormalLawRegistry());
  MutableNormalLawRegistry().Add(name, summary, std::move(make), std::move(example));
}

void RegisterDampingLaw(const std::string& name, const std::string& summary, DampingLawFactory make,
                        ParameterSet example) {
  Require("damping", name, make, DampingLawRegistry());
  MutableDampingLawRegistry().Add(name, summary, std::move(make), std::move(example));
}

void RegisterModel(const std::string& name, const std::string& summary, ModelFactory make,
                   ParameterSet example) {
  Require("model", name, make, ModelRegistry());
  MutableModelRegistry().Add(name, summary, std::move(make), std::move(example));
}

}  // namespace impactlab
