#include "io/resumable_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "io/atomic_file.h"

namespace impactlab {

std::string FormatShortest(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), x);
  IMPACTLAB_DEMAND(res.ec == std::errc());
  return std::string(buf, res.ptr);
}

namespace {

std::vector<std::string> SplitCells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::stringstream ss(line);
  while (std::getline(ss, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

std::string JoinCells(const std::vector<std::string>& cells) {
  std::string s;
  for (size_t i = 0; i < cells.size(); ++i) s += (i ? "," : "") + cells[i];
  return s;
}

}  // namespace

ResumableTable::ResumableTable(std::filesystem::path path, std::vector<std::string> columns)
    : ResumableTable(std::move(path), std::move(columns), Options{}) {}

ResumableTable::ResumableTable(std::filesystem::path path, std::vector<std::string> columns, Options options)
    : path_(std::move(path)), columns_(std::move(columns)), options_(std::move(options)) {
  for (size_t i = 0; i < options_.order.size(); ++i) rank_.emplace(options_.order[i], i);
  if (path_.empty()) return;  // in-memory table
  std::ifstream in(path_, std::ios::binary);
  if (!in) {
    std::error_code ec;
    if (options_.strict && std::filesystem::exists(path_, ec))
      throw InvalidParameter("results file", "\"" + path_.string() + "\"",
                             "a readable file (it exists but cannot be opened; it is left untouched)");
    return;
  }
  auto mismatch = [&](const std::string& what) {
    if (!options_.strict) {
      rows_.clear();
      inserted_.clear();
      return;
    }
    throw InvalidParameter("results file", "\"" + path_.string() + "\"",
                           "a file written by this same computation (" + what +
                               "); choose another output directory or delete the file to start afresh");
  };
  std::string line;
  if (!std::getline(in, line)) return;  // empty file: nothing stored yet
  if (!options_.signature.empty()) {
    const std::string expected = "# " + options_.signature;
    if (line != expected) {
      mismatch("its first line is \"" + line.substr(0, 200) + "\", this computation writes \"" + expected + "\"");
      return;
    }
    if (!std::getline(in, line)) {
      mismatch("it has no header line");
      return;
    }
  }
  if (line != JoinCells(columns_)) {
    mismatch("its header is \"" + line.substr(0, 200) + "\"");
    return;
  }
  size_t line_number = options_.signature.empty() ? 1 : 2;
  while (std::getline(in, line)) {
    ++line_number;
    std::vector<std::string> cells = SplitCells(line);
    if (cells.size() != columns_.size()) {
      if (options_.strict)
        mismatch("line " + std::to_string(line_number) + " has " + std::to_string(cells.size()) +
                 " cells, expected " + std::to_string(columns_.size()));
      continue;
    }
    const std::string key = cells.front();
    cells.erase(cells.begin());
    if (!rows_.count(key)) inserted_.push_back(key);
    rows_[key] = std::move(cells);
  }
}

bool ResumableTable::Has(const std::string& key) const {
  std::lock_guard lock(mutex_);
  return rows_.count(key) != 0;
}

std::vector<std::string> ResumableTable::GetCells(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = rows_.find(key);
  if (it == rows_.end()) throw InternalError("ResumableTable: no row \"" + key + "\" in " + path_.string());
  return it->second;
}

std::vector<double> ResumableTable::Get(const std::string& key) const {
  std::vector<double> values;
  for (const auto& cell : GetCells(key)) values.push_back(cell.empty() ? std::nan("") : std::stod(cell));
  return values;
}

void ResumableTable::Put(const std::string& key, const std::vector<double>& values) {
  std::vector<std::string> cells;
  cells.reserve(values.size());
  for (double v : values) cells.push_back(FormatShortest(v));
  PutCells(key, std::move(cells));
}

void ResumableTable::PutCells(const std::string& key, std::vector<std::string> cells) {
  IMPACTLAB_DEMAND(cells.size() + 1 == columns_.size());
  IMPACTLAB_DEMAND(key.find_first_of(",\"\r\n") == std::string::npos);
  for (const auto& c : cells) IMPACTLAB_DEMAND(c.find_first_of(",\"\r\n") == std::string::npos);
  std::lock_guard lock(mutex_);
  if (!rows_.count(key)) inserted_.push_back(key);
  rows_[key] = std::move(cells);
  if (!path_.empty()) WriteFileAtomically(path_, TextLocked());
}

size_t ResumableTable::size() const {
  std::lock_guard lock(mutex_);
  return rows_.size();
}

std::string ResumableTable::Text() const {
  std::lock_guard lock(mutex_);
  return TextLocked();
}

std::string ResumableTable::TextLocked() const {
  std::vector<std::string> keys = inserted_;
  std::stable_sort(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
    auto ra = rank_.find(a), rb = rank_.find(b);
    const size_t ia = ra == rank_.end() ? rank_.size() : ra->second;
    const size_t ib = rb == rank_.end() ? rank_.size() : rb->second;
    return ia < ib;
  });
  std::string out;
  if (!options_.signature.empty()) out += "# " + options_.signature + "\n";
  out += JoinCells(columns_) + "\n";
  for (const auto& key : keys) out += key + (columns_.size() > 1 ? "," : "") + JoinCells(rows_.at(key)) + "\n";
  return out;
}

}  // namespace impactlab
