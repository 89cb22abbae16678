// ResumableTable: a CSV results table keyed by its first column, so an interrupted computation loses at most
// the rows being computed and resumes by skipping the keys already present. Used by the seed-000 studies and
// by the parameter sweep (validation/sweep/parallel_sweep.h).
//
//  - Without a journal (the default) the file is rewritten atomically (io/atomic_file.h) after EVERY stored
//    row: O(n²) bytes over a table of n rows, fine for the studies' tables of ≤ 10³ rows.
//  - With Options::journal (the sweep: 10⁵–10⁶ rows) each row is appended to "<path>.journal" (one line,
//    flushed) and the ordered file is rewritten atomically only when the rows stored since its last rewrite
//    reach 1/8 of the table, or when 20× the duration of the last rewrite (at least 2 s) has passed: O(n)
//    bytes in all, the table file at most ~1/8 of the rows or a few seconds behind. Flush() (and the
//    destructor, best effort) writes the ordered file and removes the journal. A journal left by a killed
//    run is read back on the next construction (a torn last line, without its newline, is ignored).
//
//  - Numbers are written in the shortest form that reads back to the same double (std::to_chars), so a
//    resumed table is bitwise identical to one computed in one go; rows read from the file are kept as text.
//  - Rows are written in a fixed order when Options::order lists the keys (independent of the order in
//    which parallel workers finish); other keys follow in insertion order.
//  - Options::signature is stored as the first line "# <signature>". With Options::strict a file whose
//    signature, header or rows do not match is an InvalidParameter naming the file, and the file is never
//    overwritten; without it (seed-000 caches) such a file is ignored and recomputed.
//  - Put() is thread-safe (one mutex; the file is rewritten under it, so the file always holds every row
//    stored so far).
#pragma once

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace impactlab {

/// Shortest decimal text that parses back to exactly `x` ("0.1", "1e-05", "nan", "inf").
std::string FormatShortest(double x);

class ResumableTable {
 public:
  struct Options {
    std::string signature;           ///< stored as "# <signature>" (empty: no signature line)
    bool strict = false;             ///< mismatching file → InvalidParameter instead of recomputing
    std::vector<std::string> order;  ///< the order rows are written in (keys not listed follow)
    bool journal = false;            ///< append rows to "<path>.journal", rewrite the file rarely (see above)
  };

  /// An empty `path` keeps the table in memory only.
  ResumableTable(std::filesystem::path path, std::vector<std::string> columns);
  ResumableTable(std::filesystem::path path, std::vector<std::string> columns, Options options);
  ~ResumableTable();  ///< with a journal: Flush(), errors ignored (the journal then stays for the next run)
  ResumableTable(const ResumableTable&) = delete;
  ResumableTable& operator=(const ResumableTable&) = delete;

  bool Has(const std::string& key) const;
  /// Numeric values of a stored row (the cells after the key).
  std::vector<double> Get(const std::string& key) const;
  /// Text cells of a stored row (the cells after the key).
  std::vector<std::string> GetCells(const std::string& key) const;
  /// Stores a numeric row and rewrites the file atomically.
  void Put(const std::string& key, const std::vector<double>& values);
  /// Stores a text row (cells must not contain ',', '"' or line breaks): rewrites the file atomically, or
  /// with a journal appends it there (and rewrites the file when due).
  void PutCells(const std::string& key, std::vector<std::string> cells);
  /// With a journal: writes the ordered file now and removes the journal (no-op if nothing is pending).
  void Flush();
  /// "<path>.journal".
  std::filesystem::path journal_path() const;
  size_t size() const;
  /// The file content as it is (or would be) written.
  std::string Text() const;
  const std::filesystem::path& path() const { return path_; }
  const std::vector<std::string>& columns() const { return columns_; }

 private:
  std::string TextLocked() const;
  std::string HeadLocked() const;  ///< signature line (if any) and header line
  void ReadRows(std::istream& in, const std::string& what, size_t first_line, bool drop_torn_line);
  void AppendToJournalLocked(const std::string& line);
  void CompactLocked();
  std::filesystem::path path_;
  std::vector<std::string> columns_;
  Options options_;
  std::map<std::string, size_t> rank_;  ///< key → position in options_.order
  mutable std::mutex mutex_;
  std::map<std::string, std::vector<std::string>> rows_;
  std::vector<std::string> inserted_;  ///< keys in insertion order
  // journal state (Options::journal)
  size_t pending_ = 0;  ///< rows in the journal, not yet in the file
  double last_compact_s_ = 0;
  std::chrono::steady_clock::time_point last_compact_at_ = std::chrono::steady_clock::now();
  std::unique_ptr<std::ofstream> journal_out_;
};

}  // namespace impactlab
