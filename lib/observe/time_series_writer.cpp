#include "observe/time_series_writer.h"

#include <cmath>

#include "io/shortest_double.h"

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
  const double t = system.KineticEnergy(s), v = system.PotentialEnergy(s);
  const double scale = std::abs(e0_) > 0 ? std::abs(e0_) : 1.0;
  // The row is formatted into a reused buffer, each value as its shortest round-trip text (io/shortest_double.h),
  // then written at once.
  std::string& line = line_;
  line.clear();
  auto cell = [&line](double x) {
    line += ',';
    AppendShortest(line, x);
  };
  AppendShortest(line, s.t);
  for (Eigen::Index i = 0; i < s.q.size(); ++i) cell(s.q[i]);
  for (Eigen::Index i = 0; i < s.v.size(); ++i) cell(s.v[i]);
  cell(t);
  cell(v);
  cell(s.dissipated);
  cell(t + v);
  cell((t + v + s.dissipated - e0_) / scale);
  system.Observe(s, scratch_);
  for (double x : scratch_) cell(x);
  line += '\n';
  file_->stream().write(line.data(), static_cast<std::streamsize>(line.size()));
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
