#include "contact/radius_bound_tangential_law.h"

#include <algorithm>

#include "contact/contact_law.h"
#include "core/errors.h"

namespace impactlab {

RadiusBoundTangentialLaw::RadiusBoundTangentialLaw(std::string name, TangentialLawForRadius make,
                                                   double reference_radius)
    : name_(std::move(name)), make_(std::move(make)), reference_radius_(reference_radius) {
  if (!make_) throw InvalidParameter("tangential_law", name_, "a law factory");
  if (!(reference_radius_ > 0.0)) throw InvalidParameter("R_star", reference_radius_, "> 0 [m]");
  reference_law_ = make_(reference_radius_);
  if (!reference_law_) throw InvalidParameter("tangential_law", name_, "a law factory that returns a law");
  law_history_ = reference_law_->history_size();
  mu_ = reference_law_->friction_coefficient();
}

std::shared_ptr<const TangentialLaw> RadiusBoundTangentialLaw::LawFor(double effective_radius) const {
  return effective_radius == reference_radius_ ? reference_law_ : make_(effective_radius);
}

double RadiusBoundTangentialLaw::StoredEnergy(double radius, std::span<const double> history, double delta) const {
  if (!(radius > 0.0) || !(delta > 0.0)) return 0.0;
  return LawFor(radius)->StoredEnergy(history, delta);
}

RadiusBoundTangentialStep RadiusBoundTangentialLaw::Step(double radius0, double radius_at_touch, double delta0,
                                                         double delta1, double normal_force0, double normal_force1,
                                                         const Eigen::Vector3d& normal, const Eigen::Vector3d& slip,
                                                         std::span<const double> h0, std::span<double> h1) const {
  RadiusBoundTangentialStep out;
  if (!(delta1 > 0.0)) {
    if (radius0 > 0.0 && delta0 > 0.0) out.release_energy = LawFor(radius0)->StoredEnergy(h0, delta0);
    std::fill(h1.begin(), h1.end(), 0.0);
    return out;
  }
  out.active = true;
  out.radius = radius0 > 0.0 ? radius0 : radius_at_touch;
  const auto law = LawFor(out.radius);
  TangentialKinematics k;
  k.normal = normal;
  k.delta_n = delta1;
  k.normal_force = normal_force1;
  const TangentialResponse r = EvaluateTangentialStep(*law, k, slip, delta0, normal_force0, h0, h1);
  out.sliding = r.sliding;
  out.force = r.force;
  out.algorithmic_force = AlgorithmicTangentialForce(r, delta0, delta1);
  out.friction_work = r.friction_work;
  out.generated_work = r.generated_work;
  return out;
}

}  // namespace impactlab
