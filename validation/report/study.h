// Study: one validation study (a paper reproduction, a convergence or conservation study) in one file.
// It declares its claims — name, source (seed file and table/figure/equation), the published value and its
// stated precision — runs, and returns measured values with pass/fail, tables (Markdown + CSV) and figures.
// Register a new study with one line in report/study_registry.cpp.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace impactlab {

struct Claim {
  std::string id;            ///< short unique id, e.g. "seed001.restitution.p1.5"
  std::string description;   ///< what is claimed
  std::string source;        ///< e.g. "Seed001 §3", "THEORY.md §5", "Seed000 Table 2"
  std::optional<double> published;  ///< the paper's value (nullopt for a bound-type claim)
  double measured = 0.0;
  double tolerance = 0.0;    ///< pass if |measured − published| ≤ tolerance (abs) or measured ≤ tolerance (bound)
  bool relative = false;     ///< tolerance relative to |published|
  bool pass = false;
  bool known_deviation = false;  ///< a documented, explained miss (docs/validation-notes.md)
  std::string note;

  /// Evaluates `pass` from published/measured/tolerance.
  Claim& Evaluate();
};

/// A claim evaluated at once: pass iff |measured − published| ≤ tolerance (× |published| if relative), or,
/// without a published value, iff measured ≤ tolerance.
inline Claim MakeClaim(std::string id, std::string description, std::string source,
                       std::optional<double> published, double measured, double tolerance, bool relative = false) {
  Claim c;
  c.id = std::move(id);
  c.description = std::move(description);
  c.source = std::move(source);
  c.published = published;
  c.measured = measured;
  c.tolerance = tolerance;
  c.relative = relative;
  c.Evaluate();
  return c;
}

struct StudyContext {
  std::filesystem::path out_dir;  ///< the study's own folder (CSV + PNG go here)
  bool quick = false;
  std::function<void(const std::string&)> progress;  ///< one short line per sub-task
};

struct StudyResult {
  std::vector<Claim> claims;
  std::vector<std::string> tables_markdown;  ///< Markdown tables, in order
  std::vector<std::string> figures;          ///< PNG file names relative to the study folder
  std::string narrative;                     ///< Markdown text after the tables
};

class Study {
 public:
  virtual ~Study() = default;
  virtual std::string name() const = 0;   ///< identifier, e.g. "oscillator_comparison"
  virtual std::string title() const = 0;
  virtual std::string source() const = 0;  ///< seeds / sections it reproduces
  virtual StudyResult Run(const StudyContext& context) const = 0;
};

using StudyFactory = std::function<std::unique_ptr<Study>()>;
/// All registered studies, sorted by name.
std::vector<std::unique_ptr<Study>> RegisteredStudies();

}  // namespace impactlab
