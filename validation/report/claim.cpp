#include <cmath>

#include "report/study.h"

namespace impactlab {

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

}  // namespace impactlab
