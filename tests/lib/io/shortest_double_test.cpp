// AppendShortest (io/shortest_double.h): the text of a double reads back to the same bits, for normal, subnormal,
// extreme, signed-zero and non-finite values, and is never longer than printf's "%.17g" (std::to_chars' shortest
// round-trip text).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "io/resumable_table.h"
#include "io/shortest_double.h"
#include "state/same_bits.h"

using namespace impactlab;

namespace {
std::string Text(double x) {
  std::string s;
  AppendShortest(s, x);
  return s;
}
}  // namespace

TEST_CASE("AppendShortest: round trip to the same bits, signed zero and non-finite values") {
  using L = std::numeric_limits<double>;
  for (const double x : {0.0, -0.0, 1.0, -1.0, 0.1, 2e-7, 0.0009986322688952552, 1.0 / 3.0, L::max(), L::lowest(),
                         L::min(), L::denorm_min(), L::epsilon(), 123456789012345680.0, 6.02214076e23}) {
    const std::string s = Text(x);
    CHECK_MESSAGE(SameBits(std::strtod(s.c_str(), nullptr), x), s);
    CHECK(s == FormatShortest(x));
  }
  CHECK(Text(-0.0) == "-0");
  CHECK(Text(0.1) == "0.1");
  CHECK(Text(2e-7) == "2e-07");  // printf's "%.17g" writes 1.9999999999999999e-07 for the same double
  CHECK(Text(std::nan("")) == "nan");
  CHECK(Text(L::infinity()) == "inf");
  CHECK(Text(-L::infinity()) == "-inf");
  // Appends: the text already in the string is kept.
  std::string row = "t,";
  AppendShortest(row, 0.5);
  CHECK(row == "t,0.5");
}

TEST_CASE("AppendShortest: random doubles read back bitwise, never longer than %.17g") {
  std::mt19937_64 rng(20261207);
  std::uniform_int_distribution<std::uint64_t> bits;
  int checked = 0;
  while (checked < 20000) {
    const std::uint64_t b = bits(rng);
    double x;
    std::memcpy(&x, &b, sizeof x);
    if (!std::isfinite(x)) continue;
    ++checked;
    const std::string s = Text(x);
    REQUIRE_MESSAGE(SameBits(std::strtod(s.c_str(), nullptr), x), s);
    // Never longer than printf's exact "%.17g" (std::to_chars picks the fewest characters among the texts that
    // read back to x; a large integer keeps its exact digits in fixed notation when that is shorter).
    char g17[64];
    std::snprintf(g17, sizeof g17, "%.17g", x);
    CHECK_MESSAGE(s.size() <= std::strlen(g17), s << " vs " << g17);
  }
}
