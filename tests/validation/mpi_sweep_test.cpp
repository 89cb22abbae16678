// `mpirun -np K impactlab sweep|validate` on the real binary (validation/sweep/mpi_sweep.h,
// validation/mpi/): sweep.csv byte-identical to the single-process sweep on 2 and 3 ranks; a sweep interrupted
// on 3 ranks (SIGINT to mpirun) resumes on 2 ranks byte-identical; a killed rank stops the run with one line
// naming the case in flight, the stored rows stay and a single-process rerun completes them identically;
// `validate` on 2 ranks writes the same results.json claims as one process. Built only when CMake found MPI
// (tests/CMakeLists.txt), so nothing here is skipped.
#include <doctest/doctest.h>

#include <functional>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/run_impactlab.h"
#include "support/sweep_files.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;

const std::string kScenarios = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/";

fs::path TestRoot() { return fs::temp_directory_path() / ("impactlab_mpi_test_" + std::to_string(getpid())); }

struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ec;
    fs::remove_all(TestRoot(), ec);
  }
} scratch_cleanup;

fs::path FreshDir(const std::string& name) {
  const fs::path d = TestRoot() / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

using impactlab::test::Lines;
using impactlab::test::ReadFile;
using impactlab::test::StoredTable;
using impactlab::test::WithoutWallTime;

/// sweep.json without its measured wall times.
nlohmann::json JsonWithoutWallTime(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text);
  std::function<void(nlohmann::json&)> strip = [&](nlohmann::json& v) {
    if (v.is_object()) {
      v.erase("wall_time_s");
      for (auto& [k, x] : v.items()) strip(x);
    } else if (v.is_array()) {
      for (auto& x : v) strip(x);
    }
  };
  strip(j);
  return j;
}

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string w;
  while (ss >> w) out.push_back(w);
  return out;
}

/// The mpirun prefix of every MPI test: root is allowed (CI containers), more ranks than cores allowed.
std::string Mpirun(int ranks) {
  return std::string(IMPACTLAB_MPIEXEC) + " --oversubscribe --allow-run-as-root -np " + std::to_string(ranks) + " ";
}

/// ASAN_OPTIONS for processes under mpirun (matters in the sanitizer build, scripts/sanitize.sh): Open MPI
/// leaves ~3000 allocations at MPI_Finalize, many from plugins already unloaded ("<unknown module>", so
/// they cannot be suppressed by library), and LeakSanitizer would fail every MPI run. Leak checking is off
/// for the MPI runs only; ASan's other checks and UBSan stay on, and the same code runs with leak checking
/// in every non-MPI test.
std::string MpiAsanOptions() {
  const char* existing = std::getenv("ASAN_OPTIONS");
  return std::string(existing && *existing ? std::string(existing) + ":" : "") + "detect_leaks=0";
}

impactlab::test::CliOutput RunMpi(int ranks, const std::string& args) {
  const std::string cmd =
      "ASAN_OPTIONS='" + MpiAsanOptions() + "' " + Mpirun(ranks) + IMPACTLAB_BINARY + " " + args + " 2>&1";
  impactlab::test::CliOutput o;
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof(buf), pipe)) o.out.append(buf, n);
  const int rc = pclose(pipe);
  o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128 + WTERMSIG(rc);
  return o;
}

/// Starts `mpirun -np ranks impactlab args` in the background, stdout + stderr into `log`.
pid_t SpawnMpi(int ranks, const std::string& args, const fs::path& log) {
  std::vector<std::string> argv_s = Split(Mpirun(ranks) + IMPACTLAB_BINARY + " " + args);
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  std::vector<std::string> env_s = {"ASAN_OPTIONS=" + MpiAsanOptions()};
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("ASAN_OPTIONS=", 0) != 0) env_s.emplace_back(*e);
  std::vector<char*> env;
  for (auto& e : env_s) env.push_back(e.data());
  env.push_back(nullptr);
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), env.data()) == 0);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

/// Waits until `csv` holds at least `rows` data rows (one header line), at most 60 s.
void WaitForRows(const fs::path& csv, size_t rows) {
  const auto t0 = std::chrono::steady_clock::now();
  while (Lines(ReadFile(csv)).size() < 1 + rows && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(Lines(ReadFile(csv)).size() >= 1 + rows);
}

/// Pid of MPI rank `rank` among the children of `mpirun` (Open MPI sets OMPI_COMM_WORLD_RANK), 0 if none.
pid_t RankPid(pid_t mpirun, int rank) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    long ppid = 0;
    rest >> state >> ppid;
    if (ppid != mpirun) continue;
    const std::string env = ReadFile(entry.path() / "environ");
    if (env.find(std::string("OMPI_COMM_WORLD_RANK=") + std::to_string(rank) + '\0') != std::string::npos)
      return static_cast<pid_t>(std::stol(name));
  }
  return 0;
}

int WaitExit(pid_t pid) {
  int wstatus = 0;
  REQUIRE(waitpid(pid, &wstatus, 0) == pid);
  return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

/// A sweep of 12 rows of very different cost: Hertz impacts (~500 steps) with velocity Verlet and RK4.
const std::string kFastSweep = "sweep " + kScenarios + "hertz_impact.toml --vary e=0.5,0.7,0.9 --vary v0=0.5:1.5:2 "
                               "--integrator velocity_verlet --integrator rk4";
/// 32 ellipsoid-wall cases (Seed000 base case, dt = 2e-7 s: ~2.5e5 steps, a few tenths of a second each). Up to
/// five cases are in flight on 3 ranks (one per compute thread plus one queued per remote rank, RankPool's
/// prefetch), and a loaded machine may let the test see the first rows late: 32 cases keep the interrupted and
/// killed runs well short of the end.
const std::string kSlowSweep = "sweep " + kScenarios + "ellipsoid_wall.toml --vary theta_deg=0:75:8 "
                               "--vary e_cn=0.3,0.5,0.7,0.9 --set dt=2e-7";

}  // namespace

TEST_CASE("[mpi] sweep on 2 and 3 ranks: sweep.csv and sweep.json byte-identical to the single-process sweep") {
  // 2 ranks with one thread each; 3 ranks with 2 threads each (threads inside ranks); 1 process as reference.
  const fs::path one = FreshDir("one"), two = FreshDir("two"), three = FreshDir("three");
  const auto ref = impactlab::test::RunImpactlab(kFastSweep + " --threads 1 --out " + one.string());
  REQUIRE_MESSAGE(ref.status == 0, ref.out);
  const auto r2 = RunMpi(2, kFastSweep + " --out " + two.string());
  REQUIRE_MESSAGE(r2.status == 0, r2.out);
  CHECK_MESSAGE(r2.out.find("(2 MPI ranks)") != std::string::npos, r2.out);
  const auto r3 = RunMpi(3, kFastSweep + " --threads 2 --out " + three.string());  // threads inside ranks
  REQUIRE_MESSAGE(r3.status == 0, r3.out);
  CHECK_MESSAGE(r3.out.find("on 6 threads (3 MPI ranks)") != std::string::npos, r3.out);
  // Byte-identical but for the measured wall_time_s column (header line + 12 rows; metadata in sweep.meta.json).
  const std::string reference = WithoutWallTime(ReadFile(one / "sweep.csv"));
  REQUIRE(Lines(reference).size() == 1 + 12);
  CHECK(WithoutWallTime(ReadFile(two / "sweep.csv")) == reference);
  CHECK(WithoutWallTime(ReadFile(three / "sweep.csv")) == reference);
  CHECK(JsonWithoutWallTime(ReadFile(two / "sweep.json")) == JsonWithoutWallTime(ReadFile(one / "sweep.json")));
  CHECK(JsonWithoutWallTime(ReadFile(three / "sweep.json")) == JsonWithoutWallTime(ReadFile(one / "sweep.json")));
  // A command that does not share work refuses to run N times over.
  const auto list = RunMpi(2, "list");
  CHECK(list.status == 2);
  CHECK_MESSAGE(list.out.find("impactlab: error: invalid MPI launch = 2 ranks for `impactlab list`") != std::string::npos,
                list.out);
}

TEST_CASE("[mpi] sweep interrupted on 3 ranks (SIGINT to mpirun) resumes on 2 ranks byte-identical") {
  const fs::path ref = FreshDir("ref"), cut = FreshDir("cut");
  const auto full = impactlab::test::RunImpactlab(kSlowSweep + " --threads 2 --out " + ref.string());
  REQUIRE_MESSAGE(full.status == 0, full.out);
  const std::string reference = WithoutWallTime(ReadFile(ref / "sweep.csv"));
  const auto ref_lines = Lines(reference);
  REQUIRE(ref_lines.size() == 1 + 32);

  const fs::path log = cut / "log", csv = cut / "out" / "sweep.csv";
  const pid_t mpirun = SpawnMpi(3, kSlowSweep + " --out " + (cut / "out").string(), log);
  WaitForRows(csv, 3);
  REQUIRE(kill(mpirun, SIGINT) == 0);  // what Ctrl-C in the terminal does
  const int status = WaitExit(mpirun);
  const std::string out = ReadFile(log);
  CHECK_MESSAGE(status != 0, out);
  CHECK_MESSAGE(out.find("impactlab: interrupted (Ctrl-C or SIGTERM through mpirun): in flight: case ") !=
                    std::string::npos,
                out);
  CHECK_MESSAGE(out.find("rerun the same command to resume") != std::string::npos, out);

  // complete rows only, each one the reference's (sweep.csv and, if rank 0 was killed before folding it in,
  // its journal: what the resume reads back)
  const auto cut_lines = Lines(WithoutWallTime(StoredTable(csv)));
  REQUIRE(cut_lines.size() >= 1 + 3);
  CHECK(cut_lines.size() < ref_lines.size());
  CHECK(cut_lines[0] == ref_lines[0]);
  for (size_t i = 1; i < cut_lines.size(); ++i)
    CHECK(std::find(ref_lines.begin(), ref_lines.end(), cut_lines[i]) != ref_lines.end());

  const auto resumed = RunMpi(2, kSlowSweep + " --out " + (cut / "out").string());
  REQUIRE_MESSAGE(resumed.status == 0, resumed.out);
  CHECK_MESSAGE(resumed.out.find("resuming: " + std::to_string(cut_lines.size() - 1) + " of 32") != std::string::npos,
                resumed.out);
  CHECK(WithoutWallTime(ReadFile(csv)) == reference);
  CHECK(JsonWithoutWallTime(ReadFile(cut / "out" / "sweep.json")) == JsonWithoutWallTime(ReadFile(ref / "sweep.json")));
}

TEST_CASE("[mpi] a killed rank stops the sweep with one line naming the case in flight - rows kept - rerun resumes") {
  const fs::path ref = FreshDir("kref"), cut = FreshDir("kill");
  const auto full = impactlab::test::RunImpactlab(kSlowSweep + " --threads 2 --out " + ref.string());
  REQUIRE_MESSAGE(full.status == 0, full.out);
  const std::string reference = WithoutWallTime(ReadFile(ref / "sweep.csv"));

  const fs::path log = cut / "log", csv = cut / "out" / "sweep.csv";
  const pid_t mpirun = SpawnMpi(3, kSlowSweep + " --out " + (cut / "out").string(), log);
  WaitForRows(csv, 3);
  const pid_t victim = RankPid(mpirun, 2);
  REQUIRE(victim > 0);
  REQUIRE(kill(victim, SIGKILL) == 0);
  const int status = WaitExit(mpirun);
  const std::string out = ReadFile(log);
  CHECK_MESSAGE(status != 0, out);
  // Exactly one line of ours, naming rank 2, its pid and the case it was computing.
  const std::string head = "impactlab: error: rank 2 (pid " + std::to_string(victim) + ") ended while computing case ";
  size_t ours = 0;
  std::string line;
  for (const auto& l : Lines(out))
    if (l.rfind("impactlab: error", 0) == 0) {
      ++ours;
      line = l;
    }
  CHECK_MESSAGE(ours == 1, out);
  CHECK_MESSAGE(line.rfind(head, 0) == 0, out);
  CHECK_MESSAGE(line.find("theta_deg=") != std::string::npos, out);
  CHECK_MESSAGE(line.find("rerun the same command") != std::string::npos, out);

  // Every stored row (sweep.csv and its journal) is complete and the reference's; the case in flight is not
  // among them.
  const auto ref_lines = Lines(reference);
  const auto cut_lines = Lines(WithoutWallTime(StoredTable(csv)));
  REQUIRE(cut_lines.size() >= 1 + 3);
  CHECK(cut_lines.size() < ref_lines.size());
  for (size_t i = 0; i < cut_lines.size(); ++i)
    CHECK(std::find(ref_lines.begin(), ref_lines.end(), cut_lines[i]) != ref_lines.end());
  const size_t at = line.find("case ") + 5;
  const std::string row_of_case = line.substr(at, line.find(' ', at) - at);  // 1 integrator: row = case
  for (size_t i = 1; i < cut_lines.size(); ++i) CHECK(cut_lines[i].rfind(row_of_case + ",", 0) != 0);

  // Rerun in one process without mpirun: resumes, byte-identical.
  const auto resumed = impactlab::test::RunImpactlab(kSlowSweep + " --threads 2 --out " + (cut / "out").string());
  REQUIRE_MESSAGE(resumed.status == 0, resumed.out);
  CHECK(resumed.out.find("resuming: " + std::to_string(cut_lines.size() - 1) + " of 32") != std::string::npos);
  CHECK(WithoutWallTime(ReadFile(csv)) == reference);
}

TEST_CASE("[mpi] validate on 2 ranks writes the same results.json claims as the single-process run") {
  const fs::path one = FreshDir("v1"), two = FreshDir("v2");
  // The 7 seed-000 studies (--quick: ~0.1-0.5 s each); they also store resumable case tables in their folders.
  const std::string args = "validate --quick --only seed000";
  const auto ref = impactlab::test::RunImpactlab(args + " --threads 1 --out " + one.string());
  REQUIRE_MESSAGE(ref.status != 2, ref.out);
  const auto r2 = RunMpi(2, args + " --out " + two.string());
  CHECK_MESSAGE(r2.status == ref.status, r2.out);
  const nlohmann::json a = nlohmann::json::parse(ReadFile(one / "results.json"));
  const nlohmann::json b = nlohmann::json::parse(ReadFile(two / "results.json"));
  REQUIRE(a.at("studies").size() == 7);
  REQUIRE(a.at("claims").size() >= 7);
  CHECK(a.at("claims") == b.at("claims"));
  // Every file the studies wrote is in DIR/<study>/ on rank 0 as in the single-process run; the CSV tables
  // byte-identical (other files hold wall times).
  size_t csv = 0;
  for (const auto& f : fs::recursive_directory_iterator(one)) {
    if (!f.is_regular_file()) continue;
    const fs::path rel = fs::relative(f.path(), one);
    CHECK_MESSAGE(fs::exists(two / rel), rel.string());
    if (rel.extension() == ".csv") {
      ++csv;
      CHECK_MESSAGE(ReadFile(two / rel) == ReadFile(f.path()), rel.string());
    }
  }
  CHECK(csv >= 7);
}
