#include "version/build_info.h"

#include <CLI/Version.hpp>
#include <Eigen/Core>
#include <boost/version.hpp>
#include <ceres/version.h>
#include <nlohmann/json.hpp>
#include <sundials/sundials_config.h>
#include <toml.hpp>

#ifndef IMPACTLAB_VERSION
#error "IMPACTLAB_VERSION is set by CMakeLists.txt for this file"
#endif

namespace impactlab {

namespace {
std::string Dotted(int a, int b, int c) { return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c); }
}  // namespace

std::string Version() { return IMPACTLAB_VERSION; }

std::vector<std::pair<std::string, std::string>> DependencyVersions() {
  return {{"Eigen", Dotted(EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION)},
          {"SUNDIALS", SUNDIALS_VERSION},
          {"Boost", Dotted(BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100)},
          {"Ceres", CERES_VERSION_STRING},
          {"nlohmann_json", Dotted(NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR, NLOHMANN_JSON_VERSION_PATCH)},
          {"toml11", Dotted(TOML11_VERSION_MAJOR, TOML11_VERSION_MINOR, TOML11_VERSION_PATCH)},
          {"CLI11", CLI11_VERSION}};
}

std::string VersionText() {
  std::string s = "impactlab " + Version();
  for (const auto& [lib, v] : DependencyVersions()) s += "\n" + lib + " " + v;
  return s;
}

}  // namespace impactlab
