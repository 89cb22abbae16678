// Hook for the integrator × model matrix in the report (which integrator runs on which model). The matrix
// itself belongs to the registry (`impactlab list --matrix`); this returns its Markdown, or "" when the
// registry does not provide it.
#pragma once

#include <string>

namespace impactlab {

/// Markdown table of the integrator × model matrix ("" when unavailable).
std::string IntegratorModelMatrixMarkdown();

}  // namespace impactlab
