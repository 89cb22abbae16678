#include "report/figure_spec.h"

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"

namespace impactlab {

void WriteFigureSpec(const std::filesystem::path& dir, const FigureSpec& spec) {
  nlohmann::json j;
  j["name"] = spec.name;
  j["title"] = spec.title;
  j["xlabel"] = spec.xlabel;
  j["ylabel"] = spec.ylabel;
  j["logx"] = spec.logx;
  j["logy"] = spec.logy;
  j["series"] = nlohmann::json::array();
  for (const auto& s : spec.series) {
    nlohmann::json series = {{"csv", s.csv}, {"x", s.x}, {"y", s.y}, {"label", s.label}, {"style", s.style}};
    if (!s.where.empty()) {
      series["where"] = nlohmann::json::object();
      for (const auto& [column, value] : s.where) series["where"][column] = value;
    }
    j["series"].push_back(series);
  }
  WriteFileAtomically(dir / (spec.name + ".plot.json"), j.dump(2) + "\n");
}

}  // namespace impactlab
