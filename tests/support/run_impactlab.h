// Runs the `impactlab` binary of this build (IMPACTLAB_BINARY) with a command line, as a user would, and
// returns its exit status and combined stdout + stderr. Shared by the CLI, fault and sweep tests.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace impactlab::test {

struct CliOutput {
  int status = -1;  ///< exit code; 128 + signal number when killed
  std::string out;  ///< stdout + stderr
};

inline CliOutput RunImpactlab(const std::string& args) {
  const std::string cmd = std::string(IMPACTLAB_BINARY) + " " + args + " 2>&1";
  CliOutput o;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), pipe)) o.out.append(buf.data(), n);
  const int rc = pclose(pipe);
  o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
  return o;
}

}  // namespace impactlab::test
