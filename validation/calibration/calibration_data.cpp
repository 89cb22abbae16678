#include "calibration/calibration_data.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "core/errors.h"

namespace impactlab::calibration {

namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(Trim(item));
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

}  // namespace

CalibrationData CalibrationData::ReadCsv(const std::string& path) {
  std::error_code ec;  // a regular file only: /dev/zero or a FIFO would make the read below never end
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, ec)) in.open(path);
  if (!in.is_open()) throw InvalidParameter("data", "\"" + path + "\"", "a readable CSV file");
  CalibrationData d;
  d.source_ = path;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string t = Trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto cells = Split(t);
    if (d.columns_.empty()) {
      for (const auto& c : cells)
        if (c.empty()) throw InvalidParameter("data header", "\"" + t + "\"", "non-empty column names (" + path + ")");
      d.columns_ = cells;
      continue;
    }
    if (cells.size() != d.columns_.size())
      throw InvalidParameter(path + " line " + std::to_string(line_no), "\"" + t + "\"",
                             std::to_string(d.columns_.size()) + " comma-separated numbers");
    std::vector<double> row;
    for (size_t i = 0; i < cells.size(); ++i) {
      char* end = nullptr;
      const double v = std::strtod(cells[i].c_str(), &end);
      if (cells[i].empty() || !end || *end != '\0' || !std::isfinite(v))
        throw InvalidParameter(path + " line " + std::to_string(line_no) + " column " + d.columns_[i],
                               "\"" + cells[i] + "\"", "a finite number");
      row.push_back(v);
    }
    d.rows_.push_back(std::move(row));
  }
  if (d.columns_.empty()) throw InvalidParameter("data", "\"" + path + "\"", "a CSV file with a header row");
  if (d.rows_.empty()) throw InvalidParameter("data", "\"" + path + "\"", "at least one data row");
  return d;
}

std::string CalibrationData::ToCsv(const std::vector<std::string>& comments) const {
  std::ostringstream os;
  for (const auto& c : comments) os << "# " << c << '\n';
  for (size_t i = 0; i < columns_.size(); ++i) os << (i ? "," : "") << columns_[i];
  os << '\n' << std::setprecision(17);
  for (const auto& r : rows_) {
    for (size_t i = 0; i < r.size(); ++i) os << (i ? "," : "") << r[i];
    os << '\n';
  }
  return os.str();
}

void CalibrationData::AddRow(std::vector<double> row) {
  IMPACTLAB_DEMAND(row.size() == columns_.size());
  rows_.push_back(std::move(row));
}

bool CalibrationData::HasColumn(const std::string& name) const {
  for (const auto& c : columns_)
    if (c == name) return true;
  return false;
}

std::vector<double> CalibrationData::Column(const std::string& name) const {
  for (size_t i = 0; i < columns_.size(); ++i)
    if (columns_[i] == name) {
      std::vector<double> v;
      v.reserve(rows_.size());
      for (const auto& r : rows_) v.push_back(r[i]);
      return v;
    }
  std::string present;
  for (const auto& c : columns_) present += (present.empty() ? "" : ", ") + c;
  throw InvalidParameter("data column", "\"" + name + "\"", "a column of " + source_ + " (present: " + present + ")");
}

}  // namespace impactlab::calibration
