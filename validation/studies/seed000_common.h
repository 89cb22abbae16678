// Shared pieces of the seed-000 ellipsoid–wall studies (validation/studies/seed000_*.cpp):
//  - EllipsoidCase → one run of model "ellipsoid_wall" through RunScenario (the same path as the CLI), with
//    the output step chosen from the estimated contact time t_c ≈ π √(m_n*(t₀)/(2π K_n ρ_G)) so that every
//    stiffness gets the same number of steps per contact;
//  - ResumableTable (io/resumable_table.h): a CSV keyed by its first column, rewritten atomically after every
//    new row, so an interrupted sweep resumes where it stopped (rows already present are not recomputed);
//    RunEllipsoid throws Interrupted (core/interrupt.h) when a stop was requested, i.e. between cases.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/resumable_table.h"
#include "report/study.h"

namespace impactlab::seed000 {

struct EllipsoidCase {
  double a = 1.0, b = 0.6, c = 0.6;  ///< semi-axes [m]
  double theta_deg = 30.0;
  double v_z = -1.5, omega_y = 0.0;
  double K_n = 1e3;
  double e_cn = 0.5;
  std::string damping = "adaptive";
  std::string integrator = "velocity_verlet";
  double steps_per_contact = 4000;  ///< output / fixed step = t_c_estimate / steps_per_contact
  double dt = 0.0;                  ///< > 0 overrides steps_per_contact
  std::string out_dir;              ///< time series CSV folder (empty: none)
  std::string Key() const;          ///< stable identifier of the case (for resumable tables)
};

/// Estimated contact duration π √(m_n*(t₀)/(2π K_n ρ_G)) [s] (undamped, small-overlap).
double EstimatedContactTime(const EllipsoidCase& c);
/// The run entry of RunScenario's summary ("e_cn", "e_E", "e_E_impulsive", ...).
nlohmann::json RunEllipsoid(const EllipsoidCase& c);

/// The integrators every seed-000 study runs side by side.
std::vector<std::string> StudyIntegrators();

/// The resumable CSV cache of the seed-000 studies (now shared: io/resumable_table.h).
using ResumableTable = impactlab::ResumableTable;

/// Relative difference |x − ref|/|ref|.
double RelativeError(double x, double ref);

}  // namespace impactlab::seed000

namespace impactlab::seed000 {
/// Columns of a CSV written by TimeSeriesWriter, by name.
std::map<std::string, std::vector<double>> ReadCsvColumns(const std::filesystem::path& path);
/// "0.1234" with `digits` decimals.
std::string Fixed(double x, int digits);
/// "1.23e-04" with `digits` significant digits.
std::string Sci(double x, int digits = 3);
}  // namespace impactlab::seed000
