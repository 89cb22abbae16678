// Reads named numeric columns of a CSV file written by TimeSeriesWriter (header row, comma-separated).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace impactlab {

/// Column name → values; non-numeric cells become NaN. Throws std::runtime_error if the file is unreadable.
std::map<std::string, std::vector<double>> ReadCsvColumns(const std::filesystem::path& path);

}  // namespace impactlab
