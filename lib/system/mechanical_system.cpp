#include "system/mechanical_system.h"

#include <algorithm>

namespace impactlab {

namespace {

/// δ and δ̇ of every contact of `s` into per-thread storage (no allocation once sized).
void AllOverlaps(const MechanicalSystem& system, const MechanicalState& s, std::vector<double>*& delta,
                 std::vector<double>*& rate) {
  thread_local std::vector<double> d, r;
  const size_t nc = static_cast<size_t>(std::max(system.num_contacts(), 0));
  d.assign(nc, 0.0);
  r.assign(nc, 0.0);
  if (nc > 0) system.ContactOverlaps(s, d, r);
  delta = &d;
  rate = &r;
}

}  // namespace

MechanicalSystem::ContactReading MechanicalSystem::ContactOverlapOf(const MechanicalState& s, int contact) const {
  std::vector<double>*delta = nullptr, *rate = nullptr;
  AllOverlaps(*this, s, delta, rate);
  const size_t i = static_cast<size_t>(contact);
  return {contact, delta->at(i), rate->at(i)};
}

void MechanicalSystem::TouchingContacts(const MechanicalState& s, std::vector<ContactReading>& out) const {
  out.clear();
  std::vector<double>*delta = nullptr, *rate = nullptr;
  AllOverlaps(*this, s, delta, rate);
  for (size_t i = 0; i < delta->size(); ++i)
    if ((*delta)[i] >= 0.0) out.push_back({static_cast<int>(i), (*delta)[i], (*rate)[i]});
}

}  // namespace impactlab
