// impactlab command line: list | run | validate | ... (docs/user-guide.md). Every failure is one line on
// stderr naming the parameter, the value and the valid range; exit code 2 for bad input, 3 for a numerical
// failure, 1 for any other error. Never a crash.
#include <iostream>

#include "cli/command.h"
#include "core/errors.h"

int main(int argc, char** argv) {
  CLI::App app{"impactlab: time integration of contact problems"};
  app.require_subcommand(1);
  impactlab::cli::Action action;
  impactlab::cli::AddListCommand(app, action);
  impactlab::cli::AddRunCommand(app, action);
  impactlab::cli::AddValidateCommand(app, action);
  impactlab::cli::AddCalibrateCommand(app, action);
  impactlab::cli::AddExactCommand(app, action);
  impactlab::cli::AddDtcritCommand(app, action);
  impactlab::cli::AddConvergeCommand(app, action);
  impactlab::cli::AddBenchCommand(app, action);
  impactlab::cli::AddSweepCommand(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return action ? action() : 0;
  } catch (const impactlab::InvalidParameter& e) {
    std::cerr << "impactlab: error: " << e.what() << "\n";
    return 2;
  } catch (const impactlab::StepFailure& e) {
    std::cerr << "impactlab: numerical failure: " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "impactlab: error: " << e.what() << "\n";
    return 1;
  }
}
