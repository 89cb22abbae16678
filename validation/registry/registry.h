// Registry: a sorted name -> factory map, used only at the edge (CLI and scenario parsing). Unknown names
// are an InvalidParameter that lists every valid name (plus a "did you mean" suggestion, core/suggest.h).
// Numerics never look names up.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/parameter_set.h"
#include "core/suggest.h"

namespace impactlab {

/// A ParameterSet of numeric keys, for the `example` of a registry entry.
inline ParameterSet ExampleKeys(std::initializer_list<std::pair<const char*, double>> keys) {
  ParameterSet p;
  for (const auto& [key, value] : keys) p.Set(key, value);
  return p;
}

template <class Factory>
class Registry {
 public:
  struct Entry {
    std::string name;
    std::string summary;  ///< one line for `impactlab list`
    Factory make;
    /// Keys that make a valid instance where the factory has required keys (e.g. a model's stiffness); used to
    /// probe entries (the integrator × model matrix), never as hidden defaults of a scenario.
    ParameterSet example;
  };

  explicit Registry(std::string key) : key_(std::move(key)) {}
  void Add(std::string name, std::string summary, Factory make, ParameterSet example = {}) {
    const std::string n = name;
    entries_[n] = Entry{std::move(name), std::move(summary), std::move(make), std::move(example)};
  }
  const Entry& Get(const std::string& name) const {
    auto it = entries_.find(name);
    if (it == entries_.end())
      throw InvalidParameter(key_, "\"" + name + "\"", "one of: " + NameList() + DidYouMean(name, names()));
    return it->second;
  }
  bool Has(const std::string& name) const { return entries_.count(name) != 0; }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [n, _] : entries_) out.push_back(n);
    return out;
  }
  const std::map<std::string, Entry>& entries() const { return entries_; }
  std::string NameList() const {
    std::string s;
    for (const auto& [n, _] : entries_) s += (s.empty() ? "" : ", ") + n;
    return s;
  }

 private:
  std::string key_;
  std::map<std::string, Entry> entries_;
};

}  // namespace impactlab
