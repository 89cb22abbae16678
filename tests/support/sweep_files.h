// Reading a sweep's output files in tests (tests/validation/sweep_test.cpp, mpi_sweep_test.cpp): whole files,
// lines, and the table without the one timing-dependent column (wall_time_s, sweep/parallel_sweep.h).
#pragma once

#include <algorithm>
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

/// Every row a stopped sweep has stored, as the next run reads them back: sweep.csv merged with the rows of
/// sweep.csv.journal not yet folded into it (lib/io/resumable_table.h; a torn last line is not a row), in row
/// order, header first. After an abrupt end (mpirun's SIGKILL) the newest rows may be in the journal only.
inline std::string StoredTable(const std::filesystem::path& csv) {
  std::vector<std::string> lines = Lines(ReadFile(csv));
  std::filesystem::path journal = csv;
  journal += ".journal";
  std::string jtext = ReadFile(journal);
  if (!jtext.empty() && jtext.back() != '\n') jtext.erase(jtext.rfind('\n') + 1);  // drop a torn last line
  std::vector<std::string> jlines = Lines(jtext);
  if (lines.empty() && !jlines.empty()) lines.push_back(jlines.front());
  auto key = [](const std::string& l) { return std::stoul(l.substr(0, l.find(','))); };
  std::vector<std::pair<unsigned long, std::string>> rows;
  for (size_t i = 1; i < lines.size(); ++i) rows.emplace_back(key(lines[i]), lines[i]);
  for (size_t i = 1; i < jlines.size(); ++i) {
    const unsigned long k = key(jlines[i]);
    bool seen = false;
    for (auto& r : rows) seen = seen || r.first == k;
    if (!seen) rows.emplace_back(k, jlines[i]);
  }
  std::sort(rows.begin(), rows.end());
  std::string out = lines.empty() ? "" : lines.front() + "\n";
  for (const auto& r : rows) out += r.second + "\n";
  return out;
}

}  // namespace impactlab::test
