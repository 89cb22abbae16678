#include "cli/cli_app.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>

#include "cli/command.h"
#include "core/errors.h"
#include "core/suggest.h"
#include "io/writable_directory.h"
#include "version/build_info.h"

namespace impactlab::cli {

namespace {

thread_local bool check_only = false;

/// Sub-commands whose action honours CheckOnly(). In check-only mode any other sub-command is parsed but its
/// action is not run (a command added later cannot start a long computation under the fuzzer by accident).
const std::set<std::string>& CheckOnlyAwareCommands() {
  static const std::set<std::string> names{"list", "run", "validate", "calibrate", "exact", "dtcrit", "converge", "bench", "sweep", "workprecision"};
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
  AddWorkprecisionCommand(app, action);
  // An unknown sub-command: one line with the valid ones and a suggestion, exit 2.
  if (argc > 1 && argv[1] != nullptr && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const auto* s : app.get_subcommands([](CLI::App*) { return true; })) names.push_back(s->get_name());
    if (std::find(names.begin(), names.end(), std::string(argv[1])) == names.end()) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      err << "impactlab: error: " << InvalidParameter("command", "\"" + std::string(argv[1]) + "\"",
                                                      list + DidYouMean(argv[1], names)).what()
          << "\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    // Malformed command line (unknown flag, missing or wrongly typed value): one line, exit 2 like any
    // other bad input, with the sub-command's help hint.
    std::string what = e.what();
    for (char& ch : what)
      if (ch == '\n' || ch == '\r') ch = ' ';
    while (!what.empty() && what.back() == ' ') what.pop_back();
    std::string command = "impactlab";
    for (const auto* s : app.get_subcommands()) command += " " + s->get_name();
    err << "impactlab: error: " << what << " (see '" << command << " --help')\n";
    return 2;
  }
  if (CheckOnly()) {
    const auto chosen = app.get_subcommands();
    if (chosen.empty() || !CheckOnlyAwareCommands().count(chosen.front()->get_name())) return 0;
  }
  // A failed command leaves no empty output folder behind (io/writable_directory.h).
  struct CleanupOnFailure {
    int status = 1;
    ~CleanupOnFailure() {
      if (status != 0) RemoveEmptyCreatedDirectories();
    }
  } cleanup;
  try {
    cleanup.status = action ? action() : 0;
    return cleanup.status;
  } catch (const InvalidParameter& e) {
    err << "impactlab: error: " << e.what() << "\n";
    return cleanup.status = 2;
  } catch (const StepFailure& e) {
    err << "impactlab: numerical failure: " << e.what() << "\n";
    return cleanup.status = 3;
  } catch (const std::filesystem::filesystem_error& e) {
    // Should not happen (outputs are checked before any work), but never a raw library message: name the path.
    err << "impactlab: error: " << InvalidParameter("--out", "\"" + e.path1().string() + "\"",
                                                    "a writable location (" + e.code().message() + ")").what()
        << "\n";
    return cleanup.status = 2;
  } catch (const std::exception& e) {
    err << "impactlab: error: " << e.what() << "\n";
    return cleanup.status = 1;
  }
}

}  // namespace impactlab::cli
