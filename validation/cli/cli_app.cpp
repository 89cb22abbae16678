#include "cli/cli_app.h"

#include <iostream>
#include <set>
#include <string>

#include "cli/command.h"
#include "core/errors.h"
#include "version/build_info.h"

namespace impactlab::cli {

namespace {

thread_local bool check_only = false;

/// Sub-commands whose action honours CheckOnly(). In check-only mode any other sub-command is parsed but its
/// action is not run (a command added later cannot start a long computation under the fuzzer by accident).
const std::set<std::string>& CheckOnlyAwareCommands() {
  static const std::set<std::string> names{"list", "run", "validate", "calibrate", "exact", "dtcrit", "converge", "bench", "sweep"};
  return names;
}

struct CheckOnlyScope {
  explicit CheckOnlyScope(bool on) : previous(check_only) { check_only = on; }
  ~CheckOnlyScope() { check_only = previous; }
  CheckOnlyScope(const CheckOnlyScope&) = delete;
  CheckOnlyScope& operator=(const CheckOnlyScope&) = delete;
  bool previous;
};

}  // namespace

bool CheckOnly() { return check_only; }

int RunCli(int argc, const char* const* argv, CliMode mode) { return RunCli(argc, argv, mode, std::cout, std::cerr); }

int RunCli(int argc, const char* const* argv, CliMode mode, std::ostream& out, std::ostream& err) {
  const CheckOnlyScope scope(mode == CliMode::kCheckOnly);
  CLI::App app{"impactlab: time integration of contact problems"};
  app.require_subcommand(1);
  app.set_version_flag("--version", VersionText(), "print the version of impactlab and of Eigen, SUNDIALS, Boost, Ceres");
  Action action;
  AddListCommand(app, action);
  AddRunCommand(app, action);
  AddValidateCommand(app, action);
  AddCalibrateCommand(app, action);
  AddExactCommand(app, action);
  AddDtcritCommand(app, action);
  AddConvergeCommand(app, action);
  AddBenchCommand(app, action);
  AddSweepCommand(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err);
  }
  if (CheckOnly()) {
    const auto chosen = app.get_subcommands();
    if (chosen.empty() || !CheckOnlyAwareCommands().count(chosen.front()->get_name())) return 0;
  }
  try {
    return action ? action() : 0;
  } catch (const InvalidParameter& e) {
    err << "impactlab: error: " << e.what() << "\n";
    return 2;
  } catch (const StepFailure& e) {
    err << "impactlab: numerical failure: " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    err << "impactlab: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace impactlab::cli
