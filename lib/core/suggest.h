// ClosestMatch: "did you mean" suggestions for misspelt names (scenario keys, integrator / law / model /
// study names) at the edge.
//
//   d(a, b) = optimal-string-alignment distance (Levenshtein + adjacent transposition, Damerau 1964),
//             computed on lower-cased strings (so "k_n" matches "K_n" at distance 0), ties broken by the
//             case-sensitive distance, then alphabetically.
//   A candidate is suggested when d ≤ min(kMaxSuggestDistance, max(1, ⌈|name| / 3⌉)) and d < |name|: at most
//   two edits, at most about one edit per three characters, and never a complete replacement, so "k" is not
//   "corrected" to "m" but "velocty_verlet" is.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace impactlab {

/// Largest edit distance that is still offered as a suggestion.
inline constexpr int kMaxSuggestDistance = 2;

/// Optimal-string-alignment (restricted Damerau–Levenshtein) distance, case-sensitive.
int EditDistance(const std::string& a, const std::string& b);

/// The candidate closest to `name` within the threshold above, or nullopt. An exact match is not a
/// suggestion (returns nullopt).
std::optional<std::string> ClosestMatch(const std::string& name, const std::vector<std::string>& candidates);

/// "; did you mean 'X'?" when ClosestMatch finds X, else "" (for appending to an error message).
std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace impactlab
