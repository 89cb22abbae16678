#include "planar/planar_tangential_law.h"

#include <algorithm>
#include <span>

#include "contact/contact_law.h"
#include "core/errors.h"

namespace impactlab {

PlanarTangentialLaw::PlanarTangentialLaw(std::string name, PlanarTangentialLawMaker make)
    : name_(std::move(name)), make_(std::move(make)) {
  if (!make_) throw InvalidParameter("tangential_law", name_, "a law factory");
  const auto probe = make_(1.0);  // the layout and μ do not depend on R*
  if (!probe) throw InvalidParameter("tangential_law", name_, "a law factory that returns a law");
  law_history_ = probe->history_size();
  mu_ = probe->friction_coefficient();
}

double PlanarTangentialLaw::StoredEnergy(int slot, double delta, const Eigen::VectorXd& z) const {
  const int o = slot * stride();
  if (!(z[o] > 0.0) || !(delta > 0.0)) return 0.0;
  return LawFor(z[o])->StoredEnergy(std::span<const double>(z.data() + o + 1, static_cast<size_t>(law_history_)),
                                    delta);
}

double PlanarTangentialLaw::SpringForce(int slot, double delta, double normal_stiffness,
                                        const Eigen::VectorXd& z) const {
  const int o = slot * stride();
  if (!(z[o] > 0.0) || !(delta > 0.0)) return 0.0;
  const auto law = LawFor(z[o]);
  const double f =
      law->SpringForce(std::span<const double>(z.data() + o + 1, static_cast<size_t>(law_history_)), delta).x();
  const double cap = mu_ * normal_stiffness * delta;
  return std::clamp(f, -cap, cap);
}

PlanarTangentialStep PlanarTangentialLaw::Step(int slot, double delta0, double delta1, double ds,
                                               double radius_at_touch, double normal_stiffness,
                                               const Eigen::VectorXd& z0, Eigen::VectorXd& z1) const {
  PlanarTangentialStep out;
  const int o = slot * stride();
  const auto nh = static_cast<size_t>(law_history_);
  const std::span<const double> h0(z0.data() + o + 1, nh);
  const double r_prev = z0[o];
  if (!(delta1 > 0.0)) {
    // The contact is open at the end of the step: no force; what the spring still stores is released
    // (→ 0 as δ → 0 for the Mindlin laws; booked as friction work, as the sphere contacts do).
    if (r_prev > 0.0 && delta0 > 0.0) out.release_energy = LawFor(r_prev)->StoredEnergy(h0, delta0);
    z1.segment(o, stride()).setZero();
    return out;
  }
  out.active = true;
  const double radius = r_prev > 0.0 ? r_prev : radius_at_touch;
  const auto law = LawFor(radius);
  TangentialKinematics k;
  k.normal = Eigen::Vector3d::UnitZ();
  k.delta_n = delta1;
  k.normal_force = normal_stiffness * delta1;
  const TangentialResponse r =
      EvaluateTangentialStep(*law, k, Eigen::Vector3d(ds, 0.0, 0.0), delta0, normal_stiffness * std::max(delta0, 0.0),
                             h0, std::span<double>(z1.data() + o + 1, nh));
  z1[o] = radius;
  out.sliding = r.sliding;
  out.force = AlgorithmicTangentialForce(r, delta0, delta1).x();
  out.friction_work = r.friction_work;
  out.generated_work = r.generated_work;
  return out;
}

}  // namespace impactlab
