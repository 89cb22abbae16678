// The integrator × model matrix in the report (which integrator runs on which model). The matrix
// itself belongs to the registry (registry/integrator_model_matrix.h, also `impactlab list --matrix`); this
// renders it as Markdown.
#pragma once

#include <string>

namespace impactlab {

/// Markdown table of the integrator × model matrix ("" when unavailable).
std::string IntegratorModelMatrixMarkdown();

}  // namespace impactlab
