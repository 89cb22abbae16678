// Study: one validation study (a paper reproduction, a convergence or conservation study) in one file.
// It declares its claims — name, source (seed file and table/figure/equation), the published value and its
// stated precision — runs, and returns measured values with the raw tolerance test, tables (Markdown + CSV)
// and figures. A study never decides that its own miss is acceptable: the suite reviews every claim against
// validation/known_deviations.toml (report/known_deviations.h).
// Register a new study with one line in report/study_registry.cpp (recipe: docs/architecture.md).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/parameter_set.h"
#include "report/claim.h"

namespace impactlab {

struct StudyContext {
  std::filesystem::path out_dir;  ///< the study's own folder (CSV + PNG go here)
  bool quick = false;
  std::function<void(const std::string&)> progress;  ///< one short line per sub-task
  /// The study's declared inputs (Study::Inputs), with `validate --set STUDY.KEY=VALUE` overrides applied.
  ParameterSet inputs;
};

struct StudyResult {
  std::vector<Claim> claims;
  std::vector<std::string> tables_markdown;  ///< Markdown tables, in order
  std::vector<std::string> figures;          ///< PNG file names relative to the study folder
  std::vector<std::string> key_figures;      ///< the subset of `figures` shown at the top of the report
  std::string narrative;                     ///< Markdown text after the tables
};

class Study {
 public:
  virtual ~Study() = default;
  virtual std::string name() const = 0;   ///< identifier, e.g. "oscillator_comparison"
  virtual std::string title() const = 0;
  virtual std::string source() const = 0;  ///< seeds / sections it reproduces
  /// Named inputs a user (or a test) may override with `validate --set STUDY.KEY=VALUE`, with their defaults.
  /// Used to check the harness itself: perturb an input, see the claim leave its reviewed band.
  virtual ParameterSet Inputs() const { return {}; }
  virtual StudyResult Run(const StudyContext& context) const = 0;
};

using StudyFactory = std::function<std::unique_ptr<Study>()>;
/// All registered studies, sorted by name.
std::vector<std::unique_ptr<Study>> RegisteredStudies();

}  // namespace impactlab
