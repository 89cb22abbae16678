// Reading a sweep's output files in tests (tests/validation/sweep_test.cpp, mpi_sweep_test.cpp): whole files,
// lines, and the table without the one timing-dependent column (wall_time_s, sweep/parallel_sweep.h).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace impactlab::test {

inline std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) lines.push_back(line);
  return lines;
}

/// The table without its last column wall_time_s (the only cell that depends on timing).
inline std::string WithoutWallTime(const std::string& csv) {
  std::string out;
  for (const auto& line : Lines(csv)) out += line.substr(0, line.rfind(',')) + "\n";
  return out;
}

}  // namespace impactlab::test
