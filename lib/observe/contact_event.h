// ContactEvent: a located contact start, end, or maximum overlap, with the full state at that instant.
// Located either by the integrator (CVODE root finding) or by the driver (cubic Hermite interpolation of
// the step end points and a bracketing root solve, TOMS 748) — `located_by` says which.
#pragma once

#include <string>

#include "state/mechanical_state.h"

namespace impactlab {

enum class ContactEventKind { kStart, kEnd, kMaxOverlap };

struct ContactEvent {
  int contact = 0;
  ContactEventKind kind = ContactEventKind::kStart;
  double t = 0.0;
  double overlap = 0.0;       ///< δ at the event [m]
  double overlap_rate = 0.0;  ///< δ̇ at the event [m/s]
  MechanicalState state;
  std::string located_by;     ///< "integrator", "hermite", "dense_output"
};

inline const char* ToString(ContactEventKind kind) {
  switch (kind) {
    case ContactEventKind::kStart: return "start";
    case ContactEventKind::kEnd: return "end";
    case ContactEventKind::kMaxOverlap: return "max_overlap";
  }
  return "?";
}

}  // namespace impactlab
