// `impactlab calibrate CONFIG.toml --data FILE.csv [--json]`
// `impactlab calibrate CONFIG.toml --synthesize OUT.csv`   (deterministic synthetic data from the config's
//                                                           true_* / seed / noise keys; docs/calibration.md)
// Fits the problem the config names with Ceres (validation/calibration/calibration_problem.h) and prints the
// fitted values with standard errors, the RMS residual and the convergence report (or the JSON of
// FitResult::ToJson with --json). Exit code 0 on a converged fit, 4 when Ceres did not converge.
#include <iostream>

#include "calibration/calibration_problem.h"
#include "cli/command.h"
#include "core/errors.h"
#include "io/atomic_file.h"

namespace impactlab::cli {

void AddCalibrateCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("calibrate", "fit model parameters to measured restitution data (Ceres)");
  struct Args {
    std::string config, data, synthesize;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  sub->add_option("config", args->config, "calibration TOML file (key problem = ...)")->required();
  sub->add_option("--data", args->data, "measured data CSV (header row; columns depend on the problem)");
  sub->add_option("--synthesize", args->synthesize, "write synthetic data for the config to this CSV and exit");
  sub->add_flag("--json", args->json, "print the fit result as JSON");
  sub->callback([&action, args] {
    action = [args] {
      const ParameterSet config = calibration::LoadCalibrationConfig(args->config);
      if (!args->synthesize.empty()) {
        if (!args->data.empty()) throw InvalidParameter("--data", args->data, "absent with --synthesize");
        if (CheckOnly()) return 0;
        std::vector<std::string> provenance;
        const auto data = calibration::SynthesizeCalibrationData(config, provenance);
        provenance.push_back("config: " + args->config);
        WriteFileAtomically(args->synthesize, data.ToCsv(provenance));
        std::cout << "wrote " << data.rows() << " rows to " << args->synthesize << "\n";
        return 0;
      }
      std::optional<calibration::CalibrationData> data;
      if (!args->data.empty()) data = calibration::CalibrationData::ReadCsv(args->data);
      if (CheckOnly()) return 0;  // the fit validates the config's keys
      const calibration::FitResult fit = calibration::RunCalibration(config, data);
      if (args->json) std::cout << fit.ToJson().dump(2) << "\n";
      else std::cout << fit.Format();
      return fit.convergence.converged ? 0 : 4;
    };
  });
}

}  // namespace impactlab::cli
