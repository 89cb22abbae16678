// The integrator × model matrix in the report (which integrator runs on which model). The matrix
// itself belongs to the registry (registry/integrator_model_matrix.h, also `impactlab list --matrix`); this
// renders it as one table (✓ / n/a) plus the n/a reasons.
#pragma once

#include <string>
#include <vector>

#include "report/report_sections.h"

namespace impactlab {

struct MatrixSection {
  ReportTable table;                 ///< rows: integrators, columns: models
  std::vector<std::string> reasons;  ///< "integrator on model: reason", one per n/a cell
  bool empty() const { return table.rows.empty(); }
};

MatrixSection IntegratorModelMatrixSection();

}  // namespace impactlab
