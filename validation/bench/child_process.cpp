#include "bench/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace impactlab::bench {

std::filesystem::path FindOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

long long PhysicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<long long>(pages) * page : 0;
}

ChildRun RunChild(const std::vector<std::string>& argv, const std::vector<std::string>& extra_environment,
                  const std::filesystem::path& working_directory, const std::filesystem::path& stdout_path,
                  const std::filesystem::path& stderr_path, const ChildLimits& limits) {
  ChildRun result;
  if (argv.empty()) {
    result.error = "no program given";
    return result;
  }
  std::filesystem::path program = argv[0];
  if (program.filename() == program) program = FindOnPath(argv[0]);
  if (program.empty() || ::access(program.c_str(), X_OK) != 0) {
    result.error = argv[0] + ": not found or not executable";
    return result;
  }
  // Everything the child needs is prepared before fork: between fork and execve only async-signal-safe calls.
  std::vector<std::string> env_strings;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const auto& extra : extra_environment)
      if (entry.substr(0, entry.find('=') + 1) == extra.substr(0, extra.find('=') + 1)) replaced = true;
    if (!replaced) env_strings.push_back(entry);
  }
  for (const auto& extra : extra_environment) env_strings.push_back(extra);
  std::vector<char*> envp, args;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  argv_copy[0] = program.string();
  const std::filesystem::path time_program = "/usr/bin/time";
  const std::filesystem::path rss_file = std::filesystem::path(stderr_path).concat(".maxrss_kb");
  const bool with_time = ::access(time_program.c_str(), X_OK) == 0;
  if (with_time) {
    std::filesystem::remove(rss_file);
    argv_copy.insert(argv_copy.begin(), {time_program.string(), "-f", "%M", "-o", rss_file.string()});
  }
  for (auto& s : argv_copy) args.push_back(s.data());
  args.push_back(nullptr);
  const std::string dir = working_directory.string(), out = stdout_path.string(), err = stderr_path.string();

  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.error = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {  // the child
    ::setpgid(0, 0);
    if (::chdir(dir.c_str()) != 0) ::_exit(126);
    const int in_fd = ::open("/dev/null", O_RDONLY);
    const int out_fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in_fd < 0 || out_fd < 0 || err_fd < 0) ::_exit(126);
    ::dup2(in_fd, STDIN_FILENO);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    if (limits.address_space_bytes > 0) {
      struct rlimit rl {};
      rl.rlim_cur = rl.rlim_max = static_cast<rlim_t>(limits.address_space_bytes);
      ::setrlimit(RLIMIT_AS, &rl);
    }
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  for (;;) {
    const pid_t waited = ::wait4(pid, &status, limits.timeout_seconds > 0.0 ? WNOHANG : 0, &usage);
    if (waited == pid) break;
    if (waited < 0 && errno != EINTR) {
      result.error = std::string("wait4: ") + std::strerror(errno);
      return result;
    }
    if (limits.timeout_seconds > 0.0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > limits.timeout_seconds &&
        !result.timed_out) {
      ::kill(-pid, SIGKILL);  // the process group: time and the program
      result.timed_out = true;
    }
    if (limits.timeout_seconds > 0.0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (with_time) {
    // GNU time writes "%M" (kB); when the program was killed by a signal it writes "Command terminated by signal
    // N" first: the last line is the figure.
    std::ifstream in(rss_file);
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    try {
      result.peak_rss_kb = last.empty() ? 0 : std::stol(last);
    } catch (const std::exception&) {
      result.peak_rss_kb = 0;
    }
  }
  if (result.exit_code == 127) result.error = program.string() + ": execve failed";
  return result;
}

}  // namespace impactlab::bench
