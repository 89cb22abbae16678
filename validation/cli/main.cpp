// impactlab command line: list | run | validate | ... (docs/user-guide.md; commands in cli/cli_app.cpp).
// Every failure is one line on stderr naming the parameter, the value and the valid range; exit code 2 for
// bad input, 3 for a numerical failure, 1 for any other error. Never a crash.
#include "cli/cli_app.h"

int main(int argc, char** argv) { return impactlab::cli::RunCli(argc, argv); }
