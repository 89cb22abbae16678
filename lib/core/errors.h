// Errors in three tiers (docs/architecture.md, "Errors"):
//  1. bad user input -> InvalidParameter, thrown at construction, naming parameter, value and range;
//  2. numerical non-convergence -> a status value (StepStatus), escalated to StepFailure by the driver;
//  3. broken internal invariants -> IMPACTLAB_DEMAND, always on, throws InternalError.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace impactlab {

/// Bad user input: the message always names the parameter, the offending value and the valid range.
class InvalidParameter : public std::invalid_argument {
 public:
  InvalidParameter(const std::string& parameter, const std::string& value, const std::string& valid_range)
      : std::invalid_argument("invalid " + parameter + " = " + value + " (valid: " + valid_range + ")"),
        parameter_(parameter), value_(value), valid_range_(valid_range) {}
  InvalidParameter(const std::string& parameter, double value, const std::string& valid_range)
      : InvalidParameter(parameter, FormatNumber(value), valid_range) {}
  const std::string& parameter() const { return parameter_; }
  const std::string& value() const { return value_; }
  const std::string& valid_range() const { return valid_range_; }

  static std::string FormatNumber(double value) {
    std::ostringstream os;
    os.precision(10);
    os << value;
    return os.str();
  }

 private:
  std::string parameter_, value_, valid_range_;
};

/// A time step that could not be completed even after the retries the driver allows.
class StepFailure : public std::runtime_error {
 public:
  explicit StepFailure(const std::string& what) : std::runtime_error(what) {}
};

/// A broken internal invariant (a bug, not a user error).
class InternalError : public std::logic_error {
 public:
  explicit InternalError(const std::string& what) : std::logic_error(what) {}
};

}  // namespace impactlab

#define IMPACTLAB_DEMAND(cond)                                                                  \
  do {                                                                                          \
    if (!(cond))                                                                                \
      throw ::impactlab::InternalError(std::string("internal invariant failed: ") + #cond +     \
                                       " at " + __FILE__ + ":" + std::to_string(__LINE__));     \
  } while (false)
