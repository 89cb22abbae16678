#include "system/mechanical_system.h"

#include <algorithm>

#include "core/errors.h"

namespace impactlab {

namespace {

struct AllReadings {
  const std::vector<double>& delta;
  const std::vector<double>& rate;
};

/// δ and δ̇ of every contact of `s`, in per-thread storage (no allocation once sized; valid until the next call).
AllReadings AllOverlaps(const MechanicalSystem& system, const MechanicalState& s) {
  thread_local std::vector<double> d, r;
  const size_t nc = static_cast<size_t>(std::max(system.num_contacts(), 0));
  d.assign(nc, 0.0);
  r.assign(nc, 0.0);
  if (nc > 0) system.ContactOverlaps(s, d, r);
  return {d, r};
}

}  // namespace

MechanicalSystem::ContactReading MechanicalSystem::ContactOverlapOf(const MechanicalState& s, int contact) const {
  if (contact < 0 || contact >= num_contacts())
    throw InvalidParameter("contact", contact, "[0, " + std::to_string(num_contacts()) + ")");
  const AllReadings all = AllOverlaps(*this, s);
  const size_t i = static_cast<size_t>(contact);
  return {contact, all.delta[i], all.rate[i]};
}

void MechanicalSystem::TouchingContacts(const MechanicalState& s, std::vector<ContactReading>& out) const {
  out.clear();
  const AllReadings all = AllOverlaps(*this, s);
  for (size_t i = 0; i < all.delta.size(); ++i)
    if (all.delta[i] >= 0.0) out.push_back({static_cast<int>(i), all.delta[i], all.rate[i]});
}

}  // namespace impactlab
