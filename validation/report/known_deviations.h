// KnownDeviations: the reviewed list of claims that do not reproduce their published value, read from
// validation/known_deviations.toml. Each entry gives the claim id, the study, the published value, OUR
// measured value at review time and the band the measurement is expected to stay in (optionally a separate
// band for --quick), the reason and the evidence for the band.
//
// ReviewClaims is the only place a claim gets its status (report/claim.h):
//   passes its published tolerance          → pass, or "fixed" when it is listed (the entry can go);
//   misses it, listed, measured ∈ [low, high] → known deviation;
//   misses it, listed, measured outside       → outside band (a failure, whatever the reason says);
//   misses it, not listed                     → FAIL.
// No study marks its own miss: a study only measures.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "report/claim.h"

namespace impactlab {

struct DeviationBand {
  double expected = 0.0;  ///< our measured value at review time
  double low = 0.0, high = 0.0;
};

struct KnownDeviation {
  std::string id;     ///< the claim id
  std::string study;  ///< the study that produces the claim
  std::optional<double> published;  ///< the paper's value (nullopt for a bound-type claim)
  DeviationBand full;               ///< band at full resolution
  std::optional<DeviationBand> quick;  ///< band under --quick (full band when absent)
  std::string reason, evidence;
  const DeviationBand& Band(bool quick_mode) const { return quick_mode && quick ? *quick : full; }
};

class KnownDeviations {
 public:
  /// Parses the TOML text (array of tables [[deviation]]); throws InvalidParameter naming the entry and
  /// field on a missing or malformed field, an unknown key, a duplicate id or a band that does not contain
  /// its expected value.
  static KnownDeviations Parse(std::string_view toml_text, const std::string& source_name);
  static KnownDeviations Load(const std::filesystem::path& path);
  /// The repository's validation/known_deviations.toml.
  static std::filesystem::path DefaultPath();

  const KnownDeviation* Find(const std::string& id) const;
  const std::vector<KnownDeviation>& entries() const { return entries_; }

 private:
  std::vector<KnownDeviation> entries_;
};

/// Sets status and band of every claim (see the header comment). Pure: reads nothing else.
void ReviewClaims(std::vector<Claim>& claims, const KnownDeviations& deviations, bool quick_mode);

/// Entries of studies in `studies_run` whose id matches none of `claim_ids` (a renamed or removed claim:
/// the entry is stale and must be edited).
std::vector<std::string> StaleEntries(const KnownDeviations& deviations, const std::set<std::string>& studies_run,
                                      const std::set<std::string>& claim_ids);

}  // namespace impactlab
