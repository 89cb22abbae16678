#include "scenario/scenario.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <toml.hpp>

#include "core/errors.h"

namespace impactlab {

namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

bool ParseNumber(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end && *end == '\0';
}

}  // namespace

ParameterSet::Value ParseOverrideValue(const std::string& raw) {
  const std::string text = Trim(raw);
  double d = 0;
  if (ParseNumber(text, d)) return d;
  if (text == "true") return true;
  if (text == "false") return false;
  if (text.find(',') != std::string::npos) {
    std::vector<double> list;
    std::stringstream ss(text);
    std::string item;
    bool numeric = true;
    while (std::getline(ss, item, ',')) {
      double x = 0;
      if (!ParseNumber(Trim(item), x)) {
        numeric = false;
        break;
      }
      list.push_back(x);
    }
    if (numeric) return list;
  }
  return text;
}

Scenario LoadScenario(const std::string& path) {
  {
    std::ifstream probe(path);
    if (!probe) throw InvalidParameter("scenario", "\"" + path + "\"", "a readable TOML file");
  }
  toml::value root;
  try {
    root = toml::parse(path);
  } catch (const std::exception& e) {
    std::string msg = e.what();
    for (auto& c : msg)
      if (c == '\n') c = ' ';
    throw InvalidParameter("scenario", "\"" + path + "\"", "well-formed TOML; parser says: " + msg);
  }
  Scenario s;
  s.path = path;
  if (!root.is_table()) throw InvalidParameter("scenario", "\"" + path + "\"", "a TOML table of keys");
  for (const auto& [key, value] : root.as_table()) {
    if (key == "model") {
      if (!value.is_string()) throw InvalidParameter("model", "<non-string>", "a model name string");
      s.model = value.as_string().str;
    } else if (key == "integrators") {
      if (!value.is_array()) throw InvalidParameter("integrators", "<non-array>", "an array of integrator names");
      for (const auto& v : value.as_array()) {
        if (!v.is_string()) throw InvalidParameter("integrators", "<non-string entry>", "integrator names");
        s.integrators.push_back(v.as_string().str);
      }
    } else if (value.is_floating()) {
      s.parameters.Set(key, value.as_floating());
    } else if (value.is_integer()) {
      s.parameters.Set(key, static_cast<double>(value.as_integer()));
    } else if (value.is_boolean()) {
      s.parameters.Set(key, value.as_boolean());
    } else if (value.is_string()) {
      s.parameters.Set(key, value.as_string().str);
    } else if (value.is_array()) {
      std::vector<double> list;
      for (const auto& v : value.as_array()) {
        if (v.is_floating()) list.push_back(v.as_floating());
        else if (v.is_integer()) list.push_back(static_cast<double>(v.as_integer()));
        else throw InvalidParameter(key, "<array with non-numbers>", "an array of numbers");
      }
      s.parameters.Set(key, list);
    } else {
      throw InvalidParameter(key, "<table or date>", "a number, string, boolean or array of numbers");
    }
  }
  return s;
}

void ApplyOverride(Scenario& scenario, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InvalidParameter("--set", "\"" + assignment + "\"", "key=value");
  const std::string key = Trim(assignment.substr(0, eq));
  const std::string value = assignment.substr(eq + 1);
  if (key == "model") {
    scenario.model = Trim(value);
  } else if (key == "integrators") {
    scenario.integrators.clear();
    std::stringstream ss(value);
    std::string item;
    while (std::getline(ss, item, ',')) scenario.integrators.push_back(Trim(item));
  } else {
    scenario.parameters.Set(key, ParseOverrideValue(value));
  }
}

}  // namespace impactlab
