// Claim: one published (or derived) statement a study checks, with the measured value and the raw tolerance
// test, and — after review against validation/known_deviations.toml (report/known_deviations.h) — its status.
//
//   pass            |measured − published| ≤ tolerance (× |published| if relative), or measured ≤ tolerance
//                   for a bound-type claim (no published value); a non-finite measurement never passes.
//   status          set by ReviewClaims only: a study never marks its own miss as a known deviation.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace impactlab {

enum class ClaimStatus {
  kUnreviewed,      ///< not yet reviewed (ReviewClaims sets every claim)
  kPass,            ///< within the published tolerance, not listed
  kFixed,           ///< listed as a known deviation but now within the published tolerance: the entry can go
  kKnownDeviation,  ///< misses the published tolerance, measured value inside its reviewed band
  kOutsideBand,     ///< listed, misses the published tolerance AND its reviewed band: a failure
  kFail,            ///< misses the published tolerance, not listed: a failure
};

/// "pass", "fixed", "known deviation", "outside band", "FAIL", "unreviewed".
std::string_view ToString(ClaimStatus status);
/// True for the statuses `validate` accepts (pass, fixed, known deviation).
bool IsAcceptable(ClaimStatus status);

/// The reviewed expectation of a known deviation, copied into the claim by ReviewClaims.
struct ReviewedBand {
  double low = 0.0, high = 0.0;  ///< the measured value is expected inside [low, high]
  double expected = 0.0;         ///< our measured value at review time
  std::string reason;            ///< why the published value is not reproduced
  std::string evidence;          ///< why the band is what it is
};

struct Claim {
  std::string id;            ///< short unique id, e.g. "seed001.restitution.p1.5"
  std::string description;   ///< what is claimed
  std::string source;        ///< e.g. "Seed001 §3", "docs/theory.md §5", "Seed000 Table 2"
  std::optional<double> published;  ///< the paper's value (nullopt for a bound-type claim)
  double measured = 0.0;
  double tolerance = 0.0;    ///< pass if |measured − published| ≤ tolerance (abs) or measured ≤ tolerance (bound)
  bool relative = false;     ///< tolerance relative to |published|
  bool pass = false;         ///< the raw tolerance test (Evaluate)
  ClaimStatus status = ClaimStatus::kUnreviewed;
  std::optional<ReviewedBand> band;  ///< set when the claim is listed in known_deviations.toml
  std::string note;          ///< a study's remark on the measurement (e.g. "a CVODE run did not separate")

  /// Evaluates `pass` from published/measured/tolerance.
  Claim& Evaluate();
};

/// A claim evaluated at once: pass iff |measured − published| ≤ tolerance (× |published| if relative), or,
/// without a published value, iff measured ≤ tolerance.
Claim MakeClaim(std::string id, std::string description, std::string source, std::optional<double> published,
                double measured, double tolerance, bool relative = false);

}  // namespace impactlab
