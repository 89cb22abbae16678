#include "report/matrix_section.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "registry/integrator_model_matrix.h"

namespace impactlab {

std::string IntegratorModelMatrixMarkdown() {
  const std::vector<MatrixCell> cells = IntegratorModelMatrix();  // registry/integrator_model_matrix.h (issue 14)
  if (cells.empty()) return "";
  std::vector<std::string> models;
  std::map<std::string, std::map<std::string, const MatrixCell*>> by_integrator;
  std::vector<std::string> integrators;
  for (const auto& c : cells) {
    if (std::find(models.begin(), models.end(), c.model) == models.end()) models.push_back(c.model);
    if (!by_integrator.count(c.integrator)) integrators.push_back(c.integrator);
    by_integrator[c.integrator][c.model] = &c;
  }
  std::ostringstream md, reasons;
  md << "Each pair tried in code (`impactlab list --matrix`): ✓ runs, n/a with the reason below.\n\n| integrator |";
  for (const auto& m : models) md << " " << m << " |";
  md << "\n|---|";
  for (size_t i = 0; i < models.size(); ++i) md << "---|";
  md << "\n";
  for (const auto& i : integrators) {
    md << "| " << i << " |";
    for (const auto& m : models) {
      const auto it = by_integrator[i].find(m);
      const MatrixCell* c = it == by_integrator[i].end() ? nullptr : it->second;
      md << " " << (c == nullptr ? "-" : c->runs ? "✓" : "n/a") << " |";
      if (c != nullptr && !c->runs) reasons << "- " << i << " on " << m << ": " << c->reason << "\n";
    }
    md << "\n";
  }
  const std::string why = reasons.str();
  if (!why.empty()) md << "\nn/a:\n\n" << why;
  return md.str();
}

}  // namespace impactlab
