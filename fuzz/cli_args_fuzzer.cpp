// libFuzzer target: the CLI's argument handling in check-only mode (validation/fuzz/fuzz_entry_points.h).
// Any finding (FuzzFinding, a non-std exception, a crash or a sanitizer report) aborts, so libFuzzer keeps the
// input; scripts/fuzz.sh runs this for a bounded time from the fuzz/corpus/cli/* seeds (one command line each).
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_entry_points.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)impactlab::fuzz::FuzzCliArguments({reinterpret_cast<const char*>(data), size});
  } catch (const impactlab::fuzz::FuzzFinding& f) {
    std::fprintf(stderr, "fuzz finding: %s\n", f.what());
    std::abort();
  }
  return 0;
}
