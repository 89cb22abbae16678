#include "scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
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

/// Deepest [ ] / { } nesting outside strings and comments. Only a guard against runaway recursion in toml11: a
/// text it miscounts is still parsed (and judged) by toml11 itself.
int MaxBracketNesting(std::string_view text) {
  int depth = 0, max_depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const size_t quote_len = text.substr(i, 3) == std::string(3, c) ? 3 : 1;
      const std::string_view close = text.substr(i, quote_len);
      i += quote_len;
      while (i < text.size() && text.substr(i, quote_len) != close) {
        if (quote_len == 1 && text[i] == '\n') break;  // unterminated one-line string: toml11 reports it
        i += (c == '"' && text[i] == '\\') ? 2 : 1;   // basic strings: skip the escaped character
      }
      i += quote_len - 1;  // on the last closing quote; the loop's ++i steps past it
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return max_depth;
}

/// Offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629: no overlong forms,
/// no surrogates, <= U+10FFFF), or npos. TOML text must be UTF-8; toml11 3.7 itself reads out of bounds
/// (heap-buffer-overflow in parse_literal_string's error path) on invalid UTF-8 inside a '...' string.
size_t FirstInvalidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    unsigned cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1, cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2, cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3, cp = c & 0x07u;
    } else {
      return i;
    }
    if (s.size() - i <= n) return i;
    for (size_t k = 1; k <= n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0u) != 0x80u) return i;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += n + 1;
  }
  return std::string_view::npos;
}

/// toml11 stores an overflowing literal such as 1e999 as +-DBL_MAX (std::num_get semantics) without an error.
double CheckedFloat(const std::string& key, const toml::value& v) {
  const double x = v.as_floating();
  if (std::abs(x) == std::numeric_limits<double>::max())
    throw InvalidParameter(key, "<literal beyond the double range>", "a number with |x| < 1.8e308");
  return x;
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
  // A regular file only: /dev/zero or a FIFO would make the read below never end.
  std::error_code ec;
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, ec)) in.open(path, std::ios::binary);
  if (!in.is_open()) throw InvalidParameter("scenario", "\"" + path + "\"", "a readable TOML file");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseScenario(text.str(), path);
}

Scenario ParseScenario(std::string_view toml_text, std::string source_name) {
  const std::string& path = source_name;
  if (const int depth = MaxBracketNesting(toml_text); depth > kMaxTomlNesting)
    throw InvalidParameter("scenario", "\"" + path + "\" (nesting depth " + std::to_string(depth) + ")",
                           "TOML with arrays / inline tables nested at most " + std::to_string(kMaxTomlNesting) +
                               " levels deep");
  if (const size_t bad = FirstInvalidUtf8(toml_text); bad != std::string_view::npos)
    throw InvalidParameter("scenario", "\"" + path + "\" (byte " + std::to_string(bad) + ")", "UTF-8 text (TOML)");
  toml::value root;
  try {
    std::istringstream stream{std::string(toml_text)};
    root = toml::parse(stream, path);
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
      s.parameters.Set(key, CheckedFloat(key, value));
    } else if (value.is_integer()) {
      s.parameters.Set(key, static_cast<double>(value.as_integer()));
    } else if (value.is_boolean()) {
      s.parameters.Set(key, value.as_boolean());
    } else if (value.is_string()) {
      s.parameters.Set(key, value.as_string().str);
    } else if (value.is_array()) {
      std::vector<double> list;
      for (const auto& v : value.as_array()) {
        if (v.is_floating()) list.push_back(CheckedFloat(key, v));
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
