#include "convergence/exact_convergence.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/errors.h"
#include "integrators/simulation.h"
#include "metrics/contact_metrics.h"
#include "observe/step_observer.h"
#include "system/power_law_oscillator_structure.h"

namespace impactlab {

namespace {

// Max-norm of δ_num − δ_exact over the accepted steps inside the exact contact interval.
class TrajectoryErrorObserver final : public StepObserver {
 public:
  explicit TrajectoryErrorObserver(const ExactReference& ref) : ref_(ref) {}
  void OnStep(const MechanicalSystem&, const MechanicalState& s) override {
    const double tc = s.t - ref_.t_entry;
    if (tc < 0.0 || tc > ref_.solution.contact_time()) return;
    const double delta_num = ref_.overlap_per_coordinate * s.q[0];
    const double delta_exact = ref_.solution.StateAtTime(tc).delta;
    max_error_ = std::max(max_error_, std::abs(delta_num - delta_exact));
  }
  double max_error() const { return max_error_; }

 private:
  const ExactReference& ref_;
  double max_error_ = 0.0;
};

}  // namespace

ExactReference MakeExactReference(const MechanicalSystem& system) {
  const auto* structure = dynamic_cast<const PowerLawOscillatorStructure*>(&system);
  if (!structure)
    throw InvalidParameter("model", "\"" + system.name() + "\"", "a model exposing PowerLawOscillatorStructure");
  std::string why;
  const auto o = structure->PowerLawOscillator(&why);
  if (!o) throw InvalidParameter("model", "\"" + system.name() + "\"", "power law + Tsuji-form damping, g = 0 (" + why + ")");
  const MechanicalState s0 = system.InitialState();
  const double delta0 = o->overlap_per_coordinate * s0.q[0], rate0 = o->overlap_per_coordinate * s0.v[0];
  if (!(delta0 <= 0.0 && rate0 > 0.0))
    throw InvalidParameter("initial_state", "delta = " + InvalidParameter::FormatNumber(delta0),
                           "free flight towards the wall (delta <= 0, delta_dot > 0)");
  FengPowerLawParameters fp;
  fp.mass = o->mass;
  fp.stiffness = o->stiffness;
  fp.exponent = o->exponent;
  fp.alpha = o->alpha;
  fp.impact_velocity = rate0;
  return ExactReference{FengPowerLawSolution(fp), -delta0 / rate0, o->overlap_per_coordinate};
}

ExactErrors MeasureAgainstExact(const MechanicalSystem& system, Integrator& integrator, const ExactReference& ref,
                                double dt) {
  const auto& sol = ref.solution;
  if (!sol.rebounds()) throw InvalidParameter("alpha", sol.parameters().alpha, "a rebounding contact (zeta < 1)");
  SimulationOptions so;
  so.dt = dt;
  so.t_end = ref.t_entry + 1.5 * sol.contact_time() + 2.0 * dt;
  so.stop_after_separation = dt;
  TrajectoryErrorObserver traj(ref);
  const SimulationRecord rec = Simulate(system, integrator, system.InitialState(), so, {&traj});
  const ContactMetrics cm = FirstContactMetrics(rec.events, 0);
  ExactErrors out;
  out.dt = dt;
  out.steps = rec.steps;
  out.rhs_evaluations = rec.statistics.rhs_evaluations;
  out.wall_time_s = rec.wall_time_s;
  out.rebounded = cm.rebounds;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out.restitution = cm.restitution ? std::abs(*cm.restitution - sol.restitution()) : nan;
  out.t_contact = cm.contact_duration ? std::abs(*cm.contact_duration - sol.contact_time()) / sol.contact_time() : nan;
  out.delta_max = cm.max_overlap ? std::abs(*cm.max_overlap - sol.max_overlap()) / sol.max_overlap() : nan;
  out.trajectory = traj.max_error() / sol.max_overlap();
  return out;
}

std::optional<double> ObservedOrder(const std::vector<double>& dt, const std::vector<double>& error) {
  std::vector<std::pair<double, double>> pts;
  for (std::size_t i = 0; i < dt.size() && i < error.size(); ++i)
    if (std::isfinite(error[i]) && error[i] > kConvergenceErrorFloor && dt[i] > 0.0) pts.emplace_back(dt[i], error[i]);
  if (pts.size() < 2) return std::nullopt;
  std::sort(pts.begin(), pts.end());
  const std::size_t n = std::min(pts.size(), std::max<std::size_t>(3, (pts.size() + 1) / 2 + 1));
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = std::log(pts[i].first), y = std::log(pts[i].second);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double denom = n * sxx - sx * sx;
  if (!(std::abs(denom) > 0.0)) return std::nullopt;
  return (n * sxy - sx * sy) / denom;
}

}  // namespace impactlab
