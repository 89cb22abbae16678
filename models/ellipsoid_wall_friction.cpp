#include "models/ellipsoid_wall_friction.h"

#include <array>
#include <span>

#include "contact/contact_law.h"
#include "core/errors.h"

namespace impactlab {

EllipsoidWallFriction::EllipsoidWallFriction(std::string name, TangentialLawForRadius make, double reference_radius)
    : name_(std::move(name)), make_(std::move(make)), reference_radius_(reference_radius) {
  if (!make_) throw InvalidParameter("tangential_law", name_, "a law factory");
  if (!(reference_radius_ > 0.0)) throw InvalidParameter("R_star", reference_radius_, "> 0 [m]");
  reference_law_ = make_(reference_radius_);
  if (!reference_law_) throw InvalidParameter("tangential_law", name_, "a law factory that returns a law");
  law_history_ = reference_law_->history_size();
  if (law_history_ > kMaxLawHistory)
    throw InvalidParameter("tangential_law", name_,
                           "a law with at most " + std::to_string(kMaxLawHistory) + " history entries");
  mu_ = reference_law_->friction_coefficient();
}

std::shared_ptr<const TangentialLaw> EllipsoidWallFriction::LawFor(double effective_radius) const {
  return effective_radius == reference_radius_ ? reference_law_ : make_(effective_radius);
}

double EllipsoidWallFriction::StoredEnergy(const Eigen::VectorXd& z, double delta) const {
  if (!(z[kRadius] > 0.0) || !(delta > 0.0)) return 0.0;
  return LawFor(z[kRadius])->StoredEnergy(
      std::span<const double>(z.data() + kLaw, static_cast<size_t>(law_history_)), delta);
}

EllipsoidWallFrictionStep EllipsoidWallFriction::Step(double delta1, double normal_force1, const Eigen::Vector3d& slip,
                                                      double radius_at_touch, const Eigen::VectorXd& z0,
                                                      Eigen::VectorXd* z1) const {
  EllipsoidWallFrictionStep out;
  const auto nh = static_cast<size_t>(law_history_);
  const std::span<const double> h0(z0.data() + kLaw, nh);
  const double delta0 = z0[kDeltaPrev];
  const double radius_prev = z0[kRadius];
  if (z1) *z1 = z0;
  if (!(delta1 > 0.0)) {
    // Open at the end of the step: no force; what the spring still stores is released (→ 0 as δ → 0 for the
    // Mindlin laws; booked as friction work, as the sphere and planar contacts do).
    if (radius_prev > 0.0 && delta0 > 0.0) out.friction_work = LawFor(radius_prev)->StoredEnergy(h0, delta0);
    if (z1) {
      Eigen::VectorXd& z = *z1;
      z[kFrictionWork] += out.friction_work;
      z.segment(kLaw, law_history_).setZero();
      z[kRadius] = 0.0;
      z[kNormalForcePrev] = 0.0;
      z[kDeltaPrev] = delta1;
    }
    return out;
  }
  out.active = true;
  const double radius = radius_prev > 0.0 ? radius_prev : radius_at_touch;
  const auto law = LawFor(radius);
  TangentialKinematics k;
  k.normal = Eigen::Vector3d::UnitZ();
  k.delta_n = delta1;
  k.normal_force = normal_force1;
  std::array<double, kMaxLawHistory> scratch{};
  const std::span<double> h1 = z1 ? std::span<double>(z1->data() + kLaw, nh) : std::span<double>(scratch.data(), nh);
  const TangentialResponse r =
      EvaluateTangentialStep(*law, k, slip, delta0, z0[kNormalForcePrev], h0, h1);
  out.sliding = r.sliding;
  out.force = r.force;
  out.algorithmic_force = AlgorithmicTangentialForce(r, delta0, delta1);
  out.friction_work = r.friction_work;
  out.generated_work = r.generated_work;
  if (z1) {
    Eigen::VectorXd& z = *z1;
    z[kRadius] = radius;
    z[kFrictionWork] += r.friction_work;
    z[kGeneratedWork] += r.generated_work;
    z[kNormalForcePrev] = normal_force1;
    z[kDeltaPrev] = delta1;
  }
  return out;
}

}  // namespace impactlab
