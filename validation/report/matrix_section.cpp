#include "report/matrix_section.h"

#include <algorithm>
#include <map>

#include "registry/integrator_model_matrix.h"

namespace impactlab {

MatrixSection IntegratorModelMatrixSection() {
  const std::vector<MatrixCell> cells = IntegratorModelMatrix();
  MatrixSection out;
  std::vector<std::string> models, integrators;
  std::map<std::string, std::map<std::string, const MatrixCell*>> by_integrator;
  for (const auto& c : cells) {
    if (std::find(models.begin(), models.end(), c.model) == models.end()) models.push_back(c.model);
    if (!by_integrator.count(c.integrator)) integrators.push_back(c.integrator);
    by_integrator[c.integrator][c.model] = &c;
  }
  out.table.header = {"integrator"};
  out.table.header.insert(out.table.header.end(), models.begin(), models.end());
  for (const auto& i : integrators) {
    std::vector<std::string> row = {i};
    for (const auto& m : models) {
      const auto it = by_integrator[i].find(m);
      const MatrixCell* c = it == by_integrator[i].end() ? nullptr : it->second;
      row.push_back(c == nullptr ? "-" : c->runs ? "✓" : "n/a");
      if (c != nullptr && !c->runs) out.reasons.push_back(i + " on " + m + ": " + c->reason);
    }
    out.table.rows.push_back(row);
  }
  return out;
}

}  // namespace impactlab
