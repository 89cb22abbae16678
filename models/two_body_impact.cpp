#include "models/two_body_impact.h"

#include "core/checks.h"

namespace impactlab {

void TwoBodyImpactParameters::Validate() const {
  RequirePositive("m1", mass1);
  RequirePositive("m2", mass2);
  RequirePositive("R1", radius1);
  RequirePositive("R2", radius2);
  RequireFinite("v1", velocity1);
  RequireFinite("v2", velocity2);
  if (!(velocity1 > velocity2)) throw InvalidParameter("v1", velocity1, "> v2 = " + InvalidParameter::FormatNumber(velocity2) + " (approaching)");
  RequireNonNegative("initial_gap", initial_gap);
}

namespace {
const TwoBodyImpactParameters& Validated(const TwoBodyImpactParameters& p) {
  p.Validate();
  return p;
}
}  // namespace

TwoBodyImpact::TwoBodyImpact(TwoBodyImpactParameters parameters, DampedNormalLaw law)
    : ParticleAssembly(1, {Validated(parameters).mass1, parameters.mass2}, {parameters.radius1, parameters.radius2},
                       Eigen::Vector2d(0.0, parameters.radius1 + parameters.radius2), {{0, 1}}, std::move(law)),
      p_(parameters) {}

MechanicalState TwoBodyImpact::InitialState() const {
  MechanicalState s;
  s.q = Eigen::Vector2d(-p_.initial_gap, 0.0);  // displacements from the touching configuration
  s.v = Eigen::Vector2d(p_.velocity1, p_.velocity2);
  s.z.resize(0);
  return s;
}

}  // namespace impactlab
