// ParameterSet: the typed key -> value map a scenario is parsed into at the edge (validation/scenario),
// and that model and law factories read. Every read is recorded, so the caller can reject keys that no
// factory asked for (a misspelt key is an error, never silently ignored).
#pragma once

#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace impactlab {

class ParameterSet {
 public:
  using Value = std::variant<double, std::string, std::vector<double>, bool>;

  void Set(const std::string& key, Value value) { values_[key] = std::move(value); }
  bool Has(const std::string& key) const {
    asked_.insert(key);
    return values_.count(key) != 0;
  }

  /// Typed getters: throw InvalidParameter naming the key when the type does not match.
  double GetDouble(const std::string& key) const;
  double GetDouble(const std::string& key, double fallback) const;
  std::string GetString(const std::string& key) const;
  std::string GetString(const std::string& key, const std::string& fallback) const;
  std::vector<double> GetVector(const std::string& key) const;
  std::vector<double> GetVector(const std::string& key, const std::vector<double>& fallback) const;
  bool GetBool(const std::string& key, bool fallback) const;

  /// Takes over the usage records of a derived copy (keys it asked for and used count as asked / used here), so
  /// that a copy with an added key (e.g. a renamed restitution key) does not leave the original's keys "unused".
  void MergeUsage(const ParameterSet& copy) const {
    asked_.insert(copy.asked_.begin(), copy.asked_.end());
    used_.insert(copy.used_.begin(), copy.used_.end());
  }
  /// Keys present in the set that no getter has asked for.
  std::vector<std::string> UnusedKeys() const;
  /// Every key a getter or Has() asked for, present or not: the valid keys of whatever read this set (the
  /// candidates for "did you mean" on an unknown key).
  std::vector<std::string> AskedKeys() const { return {asked_.begin(), asked_.end()}; }
  const std::map<std::string, Value>& values() const { return values_; }
  /// Human-readable value (for error messages and reports).
  static std::string ToString(const Value& value);

 private:
  const Value* Find(const std::string& key) const;
  std::map<std::string, Value> values_;
  mutable std::set<std::string> used_;
  mutable std::set<std::string> asked_;
};

}  // namespace impactlab
