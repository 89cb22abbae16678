#include "observe/time_series_writer.h"

#include <cmath>

namespace impactlab {

TimeSeriesWriter::TimeSeriesWriter(std::filesystem::path path, long every)
    : path_(std::move(path)), every_(every < 1 ? 1 : every) {}

void TimeSeriesWriter::OnStart(const MechanicalSystem& system, const MechanicalState& state) {
  file_ = std::make_unique<AtomicFile>(path_);
  e0_ = system.TotalEnergy(state);
  auto& out = file_->stream();
  out << "t_s";
  for (Eigen::Index i = 0; i < state.q.size(); ++i) out << ",q" << i;
  for (Eigen::Index i = 0; i < state.v.size(); ++i) out << ",v" << i;
  out << ",kinetic_J,potential_J,dissipated_J,energy_J,balance_residual_rel";
  for (const auto& n : system.ObservableNames()) out << ',' << n;
  out << '\n';
  count_ = 0;
  Row(system, state);
  last_written_ = true;  // a run that stops before its first step ends with this one row, not two
}

void TimeSeriesWriter::Row(const MechanicalSystem& system, const MechanicalState& s) {
  auto& out = file_->stream();
  const double t = system.KineticEnergy(s), v = system.PotentialEnergy(s);
  const double scale = std::abs(e0_) > 0 ? std::abs(e0_) : 1.0;
  out << s.t;
  for (Eigen::Index i = 0; i < s.q.size(); ++i) out << ',' << s.q[i];
  for (Eigen::Index i = 0; i < s.v.size(); ++i) out << ',' << s.v[i];
  out << ',' << t << ',' << v << ',' << s.dissipated << ',' << t + v << ',' << (t + v + s.dissipated - e0_) / scale;
  system.Observe(s, scratch_);
  for (double x : scratch_) out << ',' << x;
  out << '\n';
}

void TimeSeriesWriter::OnStep(const MechanicalSystem& system, const MechanicalState& state) {
  ++count_;
  last_written_ = count_ % every_ == 0;
  if (last_written_) Row(system, state);
}

void TimeSeriesWriter::OnFinish(const MechanicalSystem& system, const MechanicalState& state) {
  if (!last_written_) Row(system, state);
  file_->Commit();
  file_.reset();
}

}  // namespace impactlab
