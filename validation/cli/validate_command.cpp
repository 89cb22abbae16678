// `impactlab validate [--quick] [--only PATTERN] [--threads N] [--out DIR] [--deviations FILE]
// [--set STUDY.KEY=VALUE]...`: runs the registered validation studies, reviews every claim against the known
// deviations (validation/known_deviations.toml) and writes the report (validation/report). Exit status 0
// only if every claim passes or sits inside its reviewed known-deviation band.
#include <iostream>

#include "cli/command.h"
#include "core/interrupt.h"
#include "report/validation_suite.h"

namespace impactlab::cli {

void AddValidateCommand(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("validate", "run the validation studies and write the report");
  auto options = std::make_shared<ValidationOptions>();
  sub->add_flag("--quick", options->quick, "reduced resolution (finishes in under 2 minutes)");
  sub->add_option("--only", options->only, "run only studies whose name contains PATTERN");
  sub->add_option("--threads", options->threads, "worker threads (default: all cores)");
  sub->add_option("--out", options->out_dir, "output directory (default validation-report)");
  sub->add_option("--deviations", options->deviations_file,
                  "reviewed known deviations (default: validation/known_deviations.toml of the source tree)");
  sub->add_option("--set", options->sets,
                  "override a declared study input, STUDY.KEY=VALUE (repeatable; checks the harness itself)");
  sub->callback([&action, options] {
    action = [options] {
      if (CheckOnly()) return 0;  // options are checked by the suite
      InstallInterruptHandlers();  // Ctrl-C: finish running studies, keep results, exit 130
      return RunValidationSuite(*options);
    };
  });
}

}  // namespace impactlab::cli
