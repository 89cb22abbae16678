// Carom comparison: impacts measured in a penalty simulation (contact start/end events located by the
// driver) against the rigid Routh reference (lib/planar/rigid_impact_sequence.h), for a single body among
// walls (contact slot = wall index).
//   global: the i-th measured impact vs the i-th impact of the independently chained rigid sequence
//           (impact time, wall, post-impact v and ω) — errors accumulate impact by impact (the carom is
//           sensitive to initial conditions);
//   local:  the measured post-impact velocities vs Routh's impact applied to the measured pre-impact
//           state (state at contact start) — isolates the compliant-vs-rigid impact error.
// Post-impact quantities are taken at the first separation (contact end), docs/theory.md §12.4.
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>
#include <vector>

#include "observe/contact_event.h"
#include "planar/rigid_impact_sequence.h"

namespace impactlab {

struct MeasuredImpact {
  int contact = 0;
  double t_start = 0.0, t_end = 0.0;
  MechanicalState start, end;  ///< full states at contact start and end
  /// Another contact was active during [t_start, t_end] (e.g. a corner): no single-wall rigid counterpart.
  bool simultaneous = false;
};

/// Pairs every contact start with the next end of the same contact; sorted by start time. A contact still
/// open at the end of the run is dropped. Impacts whose contact intervals overlap are flagged simultaneous.
std::vector<MeasuredImpact> ExtractImpacts(const std::vector<ContactEvent>& events);

struct ImpactErrors {
  double time = 0.0;        ///< |t_start − t_ref| [s]
  double velocity = 0.0;    ///< |v⁺ − v⁺_ref| [m/s]
  double omega = 0.0;       ///< |ω⁺ − ω⁺_ref| [rad/s]
  bool same_wall = true;
};

/// JSON with "impacts" (per impact: measured, reference, local Routh, errors) for the first `max_impacts`
/// and the maxima of the local errors ("local_velocity_error_max", "local_omega_error_max") and of the global
/// errors over the first `max_impacts`.
nlohmann::json CompareCarom(const std::vector<MeasuredImpact>& measured, const RigidImpactSequence& reference,
                            const std::vector<RigidImpactRecord>& reference_impacts, int max_impacts);

/// The local Routh prediction for a measured impact (pre-impact state = state at contact start).
RouthImpactResult LocalRouthPrediction(const MeasuredImpact& impact, const RigidImpactSequence& reference);

}  // namespace impactlab
