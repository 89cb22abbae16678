#include "contact/radius_bound_tangential_law.h"

#include <algorithm>
#include <array>

#include "contact/contact_law.h"
#include "core/errors.h"
#include "state/same_bits.h"

namespace impactlab {

namespace {

// The per-thread cache of laws built for radii other than a law's reference one: (key, R*) → law, searched from
// the most recent entry, the oldest one replaced. Keyed by the bits of R* (a law is a function of them) and by the
// owner's key, never its address (an address can be reused by another object after this one is destroyed).
struct CachedLaw {
  std::uint64_t key = 0;  // 0: empty
  double radius = 0.0;
  std::shared_ptr<const TangentialLaw> law;
};
struct LawCache {
  std::array<CachedLaw, RadiusBoundTangentialLaw::kCachedLaws> entries;
  int newest = -1;
};
thread_local LawCache t_law_cache;
std::atomic<std::uint64_t> g_next_cache_key{1};

}  // namespace

RadiusBoundTangentialLaw::RadiusBoundTangentialLaw(std::string name, TangentialLawForRadius make,
                                                   double reference_radius)
    : name_(std::move(name)),
      make_(std::move(make)),
      cache_key_(g_next_cache_key.fetch_add(1, std::memory_order_relaxed)),
      built_(std::make_shared<std::atomic<long>>(0)),
      reference_radius_(reference_radius) {
  if (!make_) throw InvalidParameter("tangential_law", name_, "a law factory");
  if (!(reference_radius_ > 0.0)) throw InvalidParameter("R_star", reference_radius_, "> 0 [m]");
  reference_law_ = make_(reference_radius_);
  if (!reference_law_) throw InvalidParameter("tangential_law", name_, "a law factory that returns a law");
  law_history_ = reference_law_->history_size();
  mu_ = reference_law_->friction_coefficient();
}

const std::shared_ptr<const TangentialLaw>& RadiusBoundTangentialLaw::SharedLawFor(double effective_radius) const {
  if (effective_radius == reference_radius_) return reference_law_;
  LawCache& cache = t_law_cache;
  constexpr int n = kCachedLaws;
  for (int k = 0; k < n && cache.newest >= 0; ++k) {
    const CachedLaw& e = cache.entries[static_cast<size_t>((cache.newest - k + n) % n)];
    if (e.key == cache_key_ && SameBits(e.radius, effective_radius)) return e.law;
  }
  std::shared_ptr<const TangentialLaw> law = make_(effective_radius);  // a throw leaves the cache as it was
  if (!law) throw InvalidParameter("tangential_law", name_, "a law factory that returns a law");
  cache.newest = (cache.newest + 1) % n;
  CachedLaw& slot = cache.entries[static_cast<size_t>(cache.newest)];
  slot.law = std::move(law);
  slot.key = cache_key_;
  slot.radius = effective_radius;
  built_->fetch_add(1, std::memory_order_relaxed);
  return slot.law;
}

long RadiusBoundTangentialLaw::laws_built() const { return built_->load(std::memory_order_relaxed); }

double RadiusBoundTangentialLaw::StoredEnergy(double radius, std::span<const double> history, double delta) const {
  if (!(radius > 0.0) || !(delta > 0.0)) return 0.0;
  return SharedLawFor(radius)->StoredEnergy(history, delta);
}

RadiusBoundTangentialStep RadiusBoundTangentialLaw::Step(double radius0, double radius_at_touch, double delta0,
                                                         double delta1, double normal_force0, double normal_force1,
                                                         const Eigen::Vector3d& normal, const Eigen::Vector3d& slip,
                                                         std::span<const double> h0, std::span<double> h1) const {
  RadiusBoundTangentialStep out;
  if (!(delta1 > 0.0)) {
    if (radius0 > 0.0 && delta0 > 0.0) out.release_energy = SharedLawFor(radius0)->StoredEnergy(h0, delta0);
    std::fill(h1.begin(), h1.end(), 0.0);
    return out;
  }
  out.active = true;
  out.radius = radius0 > 0.0 ? radius0 : radius_at_touch;
  const TangentialLaw& law = *SharedLawFor(out.radius);
  TangentialKinematics k;
  k.normal = normal;
  k.delta_n = delta1;
  k.normal_force = normal_force1;
  const TangentialResponse r = EvaluateTangentialStep(law, k, slip, delta0, normal_force0, h0, h1);
  out.sliding = r.sliding;
  out.force = r.force;
  out.algorithmic_force = AlgorithmicTangentialForce(r, delta0, delta1);
  out.friction_work = r.friction_work;
  out.generated_work = r.generated_work;
  return out;
}

}  // namespace impactlab
