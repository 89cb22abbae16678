// Version of impactlab and of the libraries it was built against (compile-time version macros of the
// headers it was compiled with): `impactlab --version`, impactlab.__version__ / impactlab.build_info() in
// Python. The project version comes from CMakeLists.txt (project(impactlab VERSION …)).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace impactlab {

/// "0.1.0".
std::string Version();
/// {{"Eigen", "3.4.0"}, {"SUNDIALS", "6.4.1"}, {"Boost", "1.74.0"}, {"Ceres", "2.1.0"}, …}.
std::vector<std::pair<std::string, std::string>> DependencyVersions();
/// "impactlab 0.1.0\nEigen 3.4.0\nSUNDIALS 6.4.1\n…" (one line each, no trailing newline).
std::string VersionText();

}  // namespace impactlab
