// RigidContactScheme: the optional marker an Integrator derives from when it treats contacts as rigid unilateral
// constraints with an impact law (Moreau–Jean, event-driven; Acary & Brogliato 2008 ch. 3, 8, 10) instead of
// integrating the model's compliant contact law. Such a scheme approximates the K → ∞ limit of the compliant
// problem, so measures of the compliant contact trajectory (the order audit's Hertz contact) do not apply; found
// by dynamic_cast, like the optional model structures (system/constant_mass_system.h).
#pragma once

#include <string>

namespace impactlab {

class RigidContactScheme {
 public:
  virtual ~RigidContactScheme() = default;
  /// The impact law the scheme applies at every contact, e.g. "Newton, e = 0.8".
  virtual std::string impact_law() const = 0;
};

}  // namespace impactlab
