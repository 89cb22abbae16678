// AppendShortest: a double as its shortest decimal text that reads back to the same double (std::to_chars without a
// precision: the fewest characters among the fixed and scientific texts that round-trip), "nan", "inf" or "-inf" for
// the non-finite values. Exact like printf's "%.17g" (strtod gives back the same bits), never longer, and several
// times faster: the time-series CSV of a 10⁴-sphere run formats 1.2·10⁵ values per row (docs/performance.md,
// "Time-series CSV rows with std::to_chars").
#pragma once

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

namespace impactlab {

inline void AppendShortest(std::string& out, double x) {
  if (std::isnan(x)) {
    out += "nan";
    return;
  }
  if (std::isinf(x)) {
    out += x > 0 ? "inf" : "-inf";
    return;
  }
  char buf[32];  // the longest shortest form of a double is 24 characters (−d.dddddddddddddddde−308)
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), x);
  out.append(buf, r.ec == std::errc() ? r.ptr : buf);
}

}  // namespace impactlab
