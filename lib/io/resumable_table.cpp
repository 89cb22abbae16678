#include "io/resumable_table.h"

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <iterator>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "io/atomic_file.h"
#include "io/shortest_double.h"

namespace impactlab {

std::string FormatShortest(double x) {
  std::string s;
  AppendShortest(s, x);
  return s;
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
  auto mismatch = [&](const std::filesystem::path& file, const std::string& what) {
    rows_.clear();
    inserted_.clear();
    if (!options_.strict) return false;
    throw InvalidParameter("results file", "\"" + file.string() + "\"",
                           "a file written by this same computation (" + what +
                               "); choose another output directory or delete the file to start afresh");
  };
  // Reads the signature and header lines of `file`; false (strict: throws) if they are not this table's.
  auto head_matches = [&](std::istream& in, const std::filesystem::path& file) {
    std::string line;
    if (!options_.signature.empty()) {
      const std::string expected = "# " + options_.signature;
      if (!std::getline(in, line)) return mismatch(file, "it has no signature line");
      if (line != expected)
        return mismatch(file, "its first line is \"" + line.substr(0, 200) + "\", this computation writes \"" +
                                  expected + "\"");
    }
    if (!std::getline(in, line)) return mismatch(file, "it has no header line");
    if (line != JoinCells(columns_)) return mismatch(file, "its header is \"" + line.substr(0, 200) + "\"");
    return true;
  };
  const size_t head_lines = options_.signature.empty() ? 1 : 2;
  {
    std::ifstream in(path_, std::ios::binary);
    if (!in) {
      std::error_code ec;
      if (options_.strict && std::filesystem::exists(path_, ec))
        throw InvalidParameter("results file", "\"" + path_.string() + "\"",
                               "a readable file (it exists but cannot be opened; it is left untouched)");
    } else if (in.peek() != std::char_traits<char>::eof()) {  // an empty file: nothing stored yet
      if (!head_matches(in, path_)) return;
      ReadRows(in, path_.string(), head_lines, false);
    }
  }
  if (!options_.journal) return;
  std::ifstream in(journal_path(), std::ios::binary);
  if (!in) return;
  if (!head_matches(in, journal_path())) return;
  ReadRows(in, journal_path().string(), head_lines, true);
  // Fold the journal into the file now: appending after a torn last line would glue two rows together.
  CompactLocked();
}

ResumableTable::~ResumableTable() {
  if (!options_.journal) return;
  try {
    Flush();
  } catch (...) {  // e.g. a full disk: the journal stays, and the next run reads it back
  }
}

void ResumableTable::ReadRows(std::istream& in, const std::string& what, size_t first_line, bool drop_torn_line) {
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t line_number = first_line, pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) {
      if (drop_torn_line) break;  // a row whose append was cut short: it was never stored
      end = text.size();
    }
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    std::vector<std::string> cells = SplitCells(line);
    if (cells.size() != columns_.size()) {
      if (options_.strict)
        throw InvalidParameter("results file", "\"" + what + "\"",
                               "a file written by this same computation (line " + std::to_string(line_number) +
                                   " has " + std::to_string(cells.size()) + " cells, expected " +
                                   std::to_string(columns_.size()) +
                                   "); choose another output directory or delete the file to start afresh");
      continue;
    }
    const std::string key = cells.front();
    cells.erase(cells.begin());
    if (!rows_.count(key)) inserted_.push_back(key);
    rows_[key] = std::move(cells);
  }
}

std::filesystem::path ResumableTable::journal_path() const {
  std::filesystem::path p = path_;
  p += ".journal";
  return p;
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
  if (!options_.journal || path_.empty()) {
    if (!rows_.count(key)) inserted_.push_back(key);
    rows_[key] = std::move(cells);
    if (!path_.empty()) WriteFileAtomically(path_, TextLocked());
    return;
  }
  AppendToJournalLocked(key + (columns_.size() > 1 ? "," : "") + JoinCells(cells) + "\n");
  if (!rows_.count(key)) inserted_.push_back(key);
  rows_[key] = std::move(cells);
  ++pending_;
  const double since = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_compact_at_).count();
  if (pending_ * 8 >= rows_.size() || since >= std::max(2.0, 20 * last_compact_s_)) CompactLocked();
}

void ResumableTable::AppendToJournalLocked(const std::string& line) {
  if (!journal_out_) {
    const bool fresh = !std::filesystem::exists(journal_path());
    journal_out_ = std::make_unique<std::ofstream>(journal_path(), std::ios::binary | std::ios::app);
    if (*journal_out_ && fresh) *journal_out_ << HeadLocked();
  }
  errno = 0;
  *journal_out_ << line;
  journal_out_->flush();
  if (!*journal_out_) {
    const std::string reason = errno != 0 ? std::strerror(errno) : "write failed";
    journal_out_.reset();
    throw InvalidParameter("output file", "\"" + journal_path().string() + "\"",
                           "a writable path with free space (appending a row failed: " + reason + "; " +
                               path_.filename().string() + " is unchanged and the rows already in the journal are kept: the next run "
                               "reads them back)");
  }
}

void ResumableTable::CompactLocked() {
  const auto t0 = std::chrono::steady_clock::now();
  WriteFileAtomically(path_, TextLocked());
  journal_out_.reset();
  std::error_code ec;
  std::filesystem::remove(journal_path(), ec);  // a leftover after a crash here is harmless: same rows
  pending_ = 0;
  last_compact_at_ = std::chrono::steady_clock::now();
  last_compact_s_ = std::chrono::duration<double>(last_compact_at_ - t0).count();
}

void ResumableTable::Flush() {
  std::lock_guard lock(mutex_);
  if (options_.journal && !path_.empty() && (pending_ > 0 || journal_out_)) CompactLocked();
}

size_t ResumableTable::size() const {
  std::lock_guard lock(mutex_);
  return rows_.size();
}

std::string ResumableTable::Text() const {
  std::lock_guard lock(mutex_);
  return TextLocked();
}

std::string ResumableTable::HeadLocked() const {
  std::string out;
  if (!options_.signature.empty()) out += "# " + options_.signature + "\n";
  return out + JoinCells(columns_) + "\n";
}

std::string ResumableTable::TextLocked() const {
  std::vector<std::string> keys = inserted_;
  std::stable_sort(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
    auto ra = rank_.find(a), rb = rank_.find(b);
    const size_t ia = ra == rank_.end() ? rank_.size() : ra->second;
    const size_t ib = rb == rank_.end() ? rank_.size() : rb->second;
    return ia < ib;
  });
  std::string out = HeadLocked();
  for (const auto& key : keys) out += key + (columns_.size() > 1 ? "," : "") + JoinCells(rows_.at(key)) + "\n";
  return out;
}

}  // namespace impactlab
