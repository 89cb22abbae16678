// CalibrationData: a measured (or synthetic) data set for a calibration, read from CSV with a header row.
// Columns are addressed by name; every value must be a finite number. Lines starting with '#' are comments
// (the synthetic-data generator writes its provenance there). Bad input → InvalidParameter naming the file,
// the row and the column.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace impactlab::calibration {

class CalibrationData {
 public:
  CalibrationData() = default;
  explicit CalibrationData(std::vector<std::string> columns) : columns_(std::move(columns)) {}

  static CalibrationData ReadCsv(const std::string& path);
  /// CSV text: comment lines (each prefixed with "# "), header, rows at 17 significant digits.
  std::string ToCsv(const std::vector<std::string>& comments = {}) const;

  void AddRow(std::vector<double> row);
  bool HasColumn(const std::string& name) const;
  /// The column's values; throws InvalidParameter naming the missing column and the ones present.
  std::vector<double> Column(const std::string& name) const;
  size_t rows() const { return rows_.size(); }
  const std::vector<std::string>& columns() const { return columns_; }
  const std::string& source() const { return source_; }

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<double>> rows_;
  std::string source_ = "<in memory>";
};

}  // namespace impactlab::calibration
