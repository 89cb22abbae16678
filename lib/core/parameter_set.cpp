#include "core/parameter_set.h"

#include <sstream>

#include "core/errors.h"

namespace impactlab {

const ParameterSet::Value* ParameterSet::Find(const std::string& key) const {
  asked_.insert(key);
  auto it = values_.find(key);
  if (it == values_.end()) return nullptr;
  used_.insert(key);
  return &it->second;
}

double ParameterSet::GetDouble(const std::string& key) const {
  const Value* v = Find(key);
  if (!v) throw InvalidParameter(key, "<missing>", "a number (required key)");
  if (auto d = std::get_if<double>(v)) return *d;
  if (auto b = std::get_if<bool>(v)) return *b ? 1.0 : 0.0;
  throw InvalidParameter(key, ToString(*v), "a number");
}
double ParameterSet::GetDouble(const std::string& key, double fallback) const {
  return Has(key) ? GetDouble(key) : fallback;
}
std::string ParameterSet::GetString(const std::string& key) const {
  const Value* v = Find(key);
  if (!v) throw InvalidParameter(key, "<missing>", "a string (required key)");
  if (auto s = std::get_if<std::string>(v)) return *s;
  throw InvalidParameter(key, ToString(*v), "a string");
}
std::string ParameterSet::GetString(const std::string& key, const std::string& fallback) const {
  return Has(key) ? GetString(key) : fallback;
}
std::vector<double> ParameterSet::GetVector(const std::string& key) const {
  const Value* v = Find(key);
  if (!v) throw InvalidParameter(key, "<missing>", "a list of numbers (required key)");
  if (auto vec = std::get_if<std::vector<double>>(v)) return *vec;
  if (auto d = std::get_if<double>(v)) return {*d};
  throw InvalidParameter(key, ToString(*v), "a list of numbers");
}
std::vector<double> ParameterSet::GetVector(const std::string& key, const std::vector<double>& fallback) const {
  return Has(key) ? GetVector(key) : fallback;
}
bool ParameterSet::GetBool(const std::string& key, bool fallback) const {
  const Value* v = Find(key);
  if (!v) return fallback;
  if (auto b = std::get_if<bool>(v)) return *b;
  if (auto d = std::get_if<double>(v)) {
    if (*d == 0.0 || *d == 1.0) return *d == 1.0;
  }
  if (auto s = std::get_if<std::string>(v)) {
    if (*s == "true") return true;
    if (*s == "false") return false;
  }
  throw InvalidParameter(key, ToString(*v), "true or false");
}

std::vector<std::string> ParameterSet::UnusedKeys() const {
  std::vector<std::string> unused;
  for (const auto& [k, _] : values_)
    if (!used_.count(k)) unused.push_back(k);
  return unused;
}

std::string ParameterSet::ToString(const Value& value) {
  std::ostringstream os;
  os.precision(12);
  if (auto d = std::get_if<double>(&value)) {
    os << *d;
  } else if (auto s = std::get_if<std::string>(&value)) {
    os << '"' << *s << '"';
  } else if (auto b = std::get_if<bool>(&value)) {
    os << (*b ? "true" : "false");
  } else {
    const auto& vec = std::get<std::vector<double>>(value);
    os << '[';
    for (size_t i = 0; i < vec.size(); ++i) os << (i ? ", " : "") << vec[i];
    os << ']';
  }
  return os.str();
}

}  // namespace impactlab
