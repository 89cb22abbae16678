// TimeSeriesWriter (observe/time_series_writer.h): the CSV rows hold every state value exactly (each cell reads back
// to the state's bits), every `every`-th step plus the last, and the energy columns of the model.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "models/harmonic_oscillator.h"
#include "observe/time_series_writer.h"
#include "state/same_bits.h"

using namespace impactlab;

namespace {
std::vector<std::vector<std::string>> ReadCsv(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}
double Parse(const std::string& s) { return std::strtod(s.c_str(), nullptr); }
}  // namespace

TEST_CASE("TimeSeriesWriter: every cell reads back to the state's bits, every n-th step and the last") {
  const HarmonicOscillator model(1.3, 7.0, 0.1, -0.7);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "impactlab_time_series_writer_test";
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / "series.csv";
  TimeSeriesWriter writer(path, 3);
  MechanicalState s = model.InitialState();
  std::vector<MechanicalState> written{s};
  writer.OnStart(model, s);
  for (int step = 1; step <= 7; ++step) {  // the exact solution's values: any doubles will do
    s.t = step * 0.1;
    s.q[0] = 0.1 * std::cos(std::sqrt(7.0 / 1.3) * s.t) + 1e-300 * step;
    s.v[0] = -0.7 * std::sin(std::sqrt(7.0 / 1.3) * s.t) / 3.0;
    writer.OnStep(model, s);
    if (step % 3 == 0 || step == 7) written.push_back(s);
  }
  writer.OnFinish(model, s);
  const auto rows = ReadCsv(path);
  REQUIRE(rows.size() == written.size() + 1);
  CHECK(rows[0][0] == "t_s");
  CHECK(rows[0][1] == "q0");
  CHECK(rows[0][2] == "v0");
  CHECK(rows[0][3] == "kinetic_J");
  for (size_t r = 0; r < written.size(); ++r) {
    const std::vector<std::string>& c = rows[r + 1];
    REQUIRE(c.size() == rows[0].size());
    const MechanicalState& w = written[r];
    CHECK(SameBits(Parse(c[0]), w.t));
    CHECK(SameBits(Parse(c[1]), w.q[0]));
    CHECK(SameBits(Parse(c[2]), w.v[0]));
    CHECK(SameBits(Parse(c[3]), model.KineticEnergy(w)));
    CHECK(SameBits(Parse(c[4]), model.PotentialEnergy(w)));
  }
  std::filesystem::remove_all(dir);
}
