#include "core/suggest.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace impactlab {

int EditDistance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  // Three rows suffice for the transposition term.
  std::vector<int> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

namespace {
std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

std::optional<std::string> ClosestMatch(const std::string& name, const std::vector<std::string>& candidates) {
  const int threshold =
      std::min(kMaxSuggestDistance, std::max(1, static_cast<int>((name.size() + 2) / 3)));
  const std::string lname = Lower(name);
  std::optional<std::tuple<int, int, std::string>> best;
  for (const auto& c : candidates) {
    if (c == name) continue;
    const int d = EditDistance(lname, Lower(c));
    if (d > threshold || d >= static_cast<int>(name.size())) continue;  // keep at least one character
    const std::tuple<int, int, std::string> key{d, EditDistance(name, c), c};
    if (!best || key < *best) best = key;
  }
  if (!best) return std::nullopt;
  return std::get<2>(*best);
}

std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  const auto m = ClosestMatch(name, candidates);
  return m ? "; did you mean '" + *m + "'?" : std::string();
}

}  // namespace impactlab
