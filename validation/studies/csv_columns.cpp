#include "studies/csv_columns.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace impactlab {

std::map<std::string, std::vector<double>> ReadCsvColumns(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  {
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) names.push_back(cell);
  }
  std::map<std::string, std::vector<double>> cols;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string cell;
    for (size_t i = 0; i < names.size(); ++i) {
      if (!std::getline(ss, cell, ',')) cell.clear();
      char* end = nullptr;
      const double v = std::strtod(cell.c_str(), &end);
      cols[names[i]].push_back(end != cell.c_str() ? v : std::nan(""));
    }
  }
  return cols;
}

}  // namespace impactlab
