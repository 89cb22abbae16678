// ClosestMatch / EditDistance (lib/core/suggest.h): the "did you mean" suggestions of the input guards.
#include <doctest/doctest.h>

#include "core/suggest.h"

using namespace impactlab;

TEST_CASE("suggest: optimal-string-alignment distance") {
  CHECK(EditDistance("", "") == 0);
  CHECK(EditDistance("abc", "") == 3);
  CHECK(EditDistance("kitten", "sitting") == 3);  // Levenshtein's classic: 2 substitutions + 1 insertion
  CHECK(EditDistance("velocty_verlet", "velocity_verlet") == 1);
  CHECK(EditDistance("hretz", "hertz") == 1);  // adjacent transposition counts as one edit
  CHECK(EditDistance("k_n", "K_n") == 1);      // case-sensitive here
}

TEST_CASE("suggest: closest match within the threshold, case-insensitive, nothing for far or exact names") {
  const std::vector<std::string> keys{"K_n", "e_cn", "mass", "semi_axes", "theta_deg", "dt", "t_end"};
  CHECK(ClosestMatch("k_n", keys) == std::optional<std::string>("K_n"));
  CHECK(ClosestMatch("semi_axis", keys) == std::optional<std::string>("semi_axes"));
  CHECK(ClosestMatch("tehta_deg", keys) == std::optional<std::string>("theta_deg"));
  CHECK(ClosestMatch("dtt", keys) == std::optional<std::string>("dt"));
  CHECK_FALSE(ClosestMatch("xyz", keys));        // 3 edits from everything
  CHECK_FALSE(ClosestMatch("mass", keys));       // exact: not a suggestion
  CHECK_FALSE(ClosestMatch("q", {"m", "k"}));    // one letter is no evidence of a typo of another letter
  CHECK_FALSE(ClosestMatch("abcdefgh", {"abcdxyzh"}));  // 3 > kMaxSuggestDistance
  CHECK(DidYouMean("rk5", {"rk4", "dopri5"}) == "; did you mean 'rk4'?");
  CHECK(DidYouMean("nothing_close", {"rk4"}).empty());
}
