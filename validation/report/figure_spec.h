// FigureSpec: a plot request a study writes next to its CSV (<name>.plot.json); scripts/plot_figures.py turns
// every spec into a PNG with matplotlib (Debian python3-matplotlib). Axis labels carry units.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace impactlab {

struct FigureSeries {
  std::string csv;      ///< CSV file relative to the study folder
  std::string x, y;     ///< column names
  std::string label;    ///< legend entry
  std::string style = "-";  ///< matplotlib format string, e.g. "-", "o-", "--"
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
