// FigureSpec: a plot request a study writes next to its CSV (<name>.plot.json); scripts/plot_figures.py turns
// every spec into a PNG with matplotlib (Debian python3-matplotlib). Axis labels carry units. A series reads two
// columns of a CSV, optionally only the rows that match `where`.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace impactlab {

struct FigureSeries {
  std::string csv;      ///< CSV file relative to the study folder
  std::string x, y;     ///< column names
  std::string label;    ///< legend entry
  std::string style = "-";  ///< matplotlib format string, e.g. "-", "o-", "--"
  /// Only the rows whose column `first` holds the text `second`, for every pair (a long table holding several series).
  std::vector<std::pair<std::string, std::string>> where = {};
};

struct FigureSpec {
  std::string name;  ///< output PNG: <name>.png in the study folder
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<FigureSeries> series;
};

/// Writes <dir>/<spec.name>.plot.json atomically.
void WriteFigureSpec(const std::filesystem::path& dir, const FigureSpec& spec);

}  // namespace impactlab
