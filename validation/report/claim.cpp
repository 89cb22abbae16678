#include "report/claim.h"

#include <cmath>

namespace impactlab {

std::string_view ToString(ClaimStatus status) {
  switch (status) {
    case ClaimStatus::kPass: return "pass";
    case ClaimStatus::kFixed: return "fixed";
    case ClaimStatus::kKnownDeviation: return "known deviation";
    case ClaimStatus::kOutsideBand: return "outside band";
    case ClaimStatus::kFail: return "FAIL";
    case ClaimStatus::kUnreviewed: break;
  }
  return "unreviewed";
}

bool IsAcceptable(ClaimStatus status) {
  return status == ClaimStatus::kPass || status == ClaimStatus::kFixed || status == ClaimStatus::kKnownDeviation;
}

Claim& Claim::Evaluate() {
  if (!std::isfinite(measured)) {
    pass = false;
    return *this;
  }
  if (published) {
    const double scale = relative ? std::abs(*published) : 1.0;
    pass = std::abs(measured - *published) <= tolerance * scale;
  } else {
    pass = measured <= tolerance;
  }
  return *this;
}

Claim MakeClaim(std::string id, std::string description, std::string source, std::optional<double> published,
                double measured, double tolerance, bool relative) {
  Claim c;
  c.id = std::move(id);
  c.description = std::move(description);
  c.source = std::move(source);
  c.published = published;
  c.measured = measured;
  c.tolerance = tolerance;
  c.relative = relative;
  c.Evaluate();
  return c;
}

}  // namespace impactlab
