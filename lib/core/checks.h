// Input checks that throw InvalidParameter with the parameter name, value and valid range.
// Always on (never assert()): user input is validated in Release builds too.
#pragma once

#include <cmath>
#include <string>

#include "core/errors.h"

namespace impactlab {

inline double RequireFinite(const std::string& name, double value) {
  if (!std::isfinite(value)) throw InvalidParameter(name, value, "a finite number");
  return value;
}
inline double RequirePositive(const std::string& name, double value) {
  if (!(std::isfinite(value) && value > 0.0)) throw InvalidParameter(name, value, "> 0");
  return value;
}
inline double RequireNonNegative(const std::string& name, double value) {
  if (!(std::isfinite(value) && value >= 0.0)) throw InvalidParameter(name, value, ">= 0");
  return value;
}
inline double RequireAtLeast(const std::string& name, double value, double lower) {
  if (!(std::isfinite(value) && value >= lower))
    throw InvalidParameter(name, value, ">= " + InvalidParameter::FormatNumber(lower));
  return value;
}
/// Half-open interval (lower, upper].
inline double RequireInLeftOpen(const std::string& name, double value, double lower, double upper) {
  if (!(std::isfinite(value) && value > lower && value <= upper))
    throw InvalidParameter(name, value,
                           "(" + InvalidParameter::FormatNumber(lower) + ", " +
                               InvalidParameter::FormatNumber(upper) + "]");
  return value;
}
/// Half-open interval [lower, upper).
inline double RequireInRightOpen(const std::string& name, double value, double lower, double upper) {
  if (!(std::isfinite(value) && value >= lower && value < upper))
    throw InvalidParameter(name, value,
                           "[" + InvalidParameter::FormatNumber(lower) + ", " +
                               InvalidParameter::FormatNumber(upper) + ")");
  return value;
}
/// Closed interval [lower, upper].
inline double RequireInClosed(const std::string& name, double value, double lower, double upper) {
  if (!(std::isfinite(value) && value >= lower && value <= upper))
    throw InvalidParameter(name, value,
                           "[" + InvalidParameter::FormatNumber(lower) + ", " +
                               InvalidParameter::FormatNumber(upper) + "]");
  return value;
}
/// Open interval (lower, upper).
inline double RequireInOpen(const std::string& name, double value, double lower, double upper) {
  if (!(std::isfinite(value) && value > lower && value < upper))
    throw InvalidParameter(name, value,
                           "(" + InvalidParameter::FormatNumber(lower) + ", " +
                               InvalidParameter::FormatNumber(upper) + ")");
  return value;
}

}  // namespace impactlab
