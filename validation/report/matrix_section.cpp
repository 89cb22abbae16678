#include "report/matrix_section.h"

namespace impactlab {

// HOOK (issue 18 ↔ issue 14): fill from the registry's integrator × model matrix once it lands on main.
std::string IntegratorModelMatrixMarkdown() { return ""; }

}  // namespace impactlab
