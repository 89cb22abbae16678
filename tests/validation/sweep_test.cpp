// The parameter sweep (validation/sweep/parallel_sweep.h, `impactlab sweep`): axis parsing, determinism
// (byte-identical sweep.csv for 1 and 2 threads and run to run, each row equal to a direct RunScenario),
// interrupt-and-resume through the real binary (SIGINT → exit 130, a strict subset of complete rows, rerun →
// byte-identical to an uninterrupted run), an unwritable output directory and a mismatched resume (clear
// error, exit 2, existing results untouched).
#include <doctest/doctest.h>

#include "support/run_impactlab.h"
#include "support/sweep_files.h"
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/errors.h"
#include "core/interrupt.h"
#include "io/resumable_table.h"
#include "run/scenario_runner.h"
#include "sweep/parallel_sweep.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace impactlab;

const std::string kScenarios = std::string(IMPACTLAB_SOURCE_DIR) + "/validation/scenarios/";

fs::path TestRoot() { return fs::temp_directory_path() / ("impactlab_sweep_test_" + std::to_string(getpid())); }

// Removes this process's scratch directories at exit.
struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ec;
    fs::remove_all(TestRoot(), ec);
  }
} scratch_cleanup;

fs::path FreshDir(const std::string& name) {
  const fs::path d = TestRoot() / name;
  fs::remove_all(d);
  return d;
}

using impactlab::test::Lines;
using impactlab::test::ReadFile;
using impactlab::test::WithoutWallTime;

using Output = impactlab::test::CliOutput;
Output RunCli(const std::string& args) { return impactlab::test::RunImpactlab(args); }

/// A fast sweep: undamped/damped Hertz impacts (contact_oscillator, ~500 steps per run), 3 x 2 cases x 2
/// integrators = 12 rows.
SweepSpec FastSpec() {
  SweepSpec s;
  s.scenario = LoadScenario(kScenarios + "hertz_impact.toml");
  s.axes = {ParseSweepAxis("e=0.5,0.7,0.9"), ParseSweepAxis("v0=0.5:1.5:2")};
  s.integrators = {"velocity_verlet", "rk4"};
  return s;
}

}  // namespace

TEST_CASE("sweep axes: lists, ranges with both ends included, malformed text rejected") {
  const SweepAxis a = ParseSweepAxis("theta_deg = 0, 30 ,45");
  CHECK(a.key == "theta_deg");
  CHECK(a.values == std::vector<std::string>{"0", "30", "45"});
  const SweepAxis r = ParseSweepAxis("e_cn=0.1:0.9:5");
  CHECK(r.values == std::vector<std::string>{"0.1", "0.30000000000000004", "0.5", "0.7000000000000001", "0.9"});
  CHECK(ParseSweepAxis("K_n=1e3:1e3:1").values == std::vector<std::string>{"1000"});
  CHECK(ParseSweepAxis("damping=adaptive,fixed_initial_mass").values.size() == 2);
  // log ranges: geometric spacing, both ends exact
  const SweepAxis g4 = ParseSweepAxis("dt=log:1e-6:1e-3:4");
  REQUIRE(g4.values.size() == 4);
  CHECK(g4.values.front() == "1e-06");
  CHECK(g4.values.back() == "0.001");
  const SweepAxis g = ParseSweepAxis("dt=log:1e-6:1e-3:7");
  REQUIRE(g.values.size() == 7);
  for (size_t i = 0; i < 7; ++i)
    CHECK(std::stod(g.values[i]) == doctest::Approx(1e-6 * std::pow(10.0, 0.5 * static_cast<double>(i))).epsilon(1e-14));
  for (const char* bad : {"theta_deg", "=1,2", "e=", "e=1,,2", "e=0:1", "e=0:1:0", "e=0:1:2.5", "e=a:1:3",
                          "integrators=rk4", "status=1", "dt=log:0:1:3", "dt=log:-1:1:3", "dt=log:1e-3:1", "dt=log:1:2:3:4"})
    CHECK_THROWS_AS(ParseSweepAxis(bad), InvalidParameter);
}

TEST_CASE("resumable table: rows in the given order whatever the Put order - strict mode refuses other files") {
  const fs::path dir = FreshDir("table");
  const fs::path path = dir / "t.csv";
  ResumableTable::Options o;
  o.signature = "test v1";
  o.strict = true;
  o.order = {"0", "1", "2"};
  {
    ResumableTable t(path, {"row", "x"}, o);
    t.Put("2", {0.1});
    t.Put("0", {1.0 / 3.0});
  }
  CHECK(ReadFile(path) == "# test v1\nrow,x\n0,0.3333333333333333\n2,0.1\n");
  ResumableTable again(path, {"row", "x"}, o);
  CHECK(again.Has("0"));
  CHECK(!again.Has("1"));
  CHECK(again.Get("0")[0] == 1.0 / 3.0);  // shortest round-trip text reads back bitwise
  o.signature = "test v2";
  CHECK_THROWS_AS(ResumableTable(path, {"row", "x"}, o), InvalidParameter);
  CHECK(ReadFile(path) == "# test v1\nrow,x\n0,0.3333333333333333\n2,0.1\n");  // untouched
}

TEST_CASE("[study] sweep determinism: byte-identical sweep.csv for 1 and 2 threads and run to run") {
  const SweepSpec spec = FastSpec();
  std::string csv[3];
  const int threads[3] = {1, 2, 1};
  for (int k = 0; k < 3; ++k) {
    const fs::path dir = FreshDir("det" + std::to_string(k));
    SweepOptions o;
    o.threads = threads[k];
    o.out_dir = dir.string();
    const SweepResult r = RunSweep(spec, o);
    CHECK(!r.interrupted);
    CHECK(r.rows_done == 12);
    CHECK(r.rows_failed == 0);
    csv[k] = WithoutWallTime(ReadFile(dir / "sweep.csv"));
    CHECK(csv[k] == WithoutWallTime(r.csv));
    CHECK(fs::exists(dir / "sweep.json"));
  }
  CHECK(csv[0] == csv[1]);  // thread count does not matter
  CHECK(csv[0] == csv[2]);  // run to run
  SweepOptions in_memory;
  in_memory.threads = 2;
  CHECK(WithoutWallTime(RunSweep(spec, in_memory).csv) == csv[0]);  // no --out: same table, nothing written
  const SweepTiming timing = TimeSweep(spec, 2);
  CHECK(timing.rows == 12);
  CHECK(timing.wall_time_s > 0.0);
  REQUIRE(Lines(csv[0]).size() == 1 + 12);  // header + rows (metadata in sweep.meta.json)

  // Each row is exactly what a direct run of the same case gives (row 7 = case 3 (e = 0.7, v0 = 1.5), rk4).
  const auto row7 = Lines(csv[0])[1 + 7];
  RunRequest req;
  req.scenario = spec.scenario;
  ApplyOverride(req.scenario, "e=0.7");
  ApplyOverride(req.scenario, "v0=1.5");
  req.integrators = {"rk4"};
  const auto run = RunScenario(req)["runs"][0];
  CHECK(row7 == "7,3,0.7,1.5,rk4,ok," + FormatShortest(run["restitution"].get<double>()) + "," +
                    FormatShortest(run["contact_duration"].get<double>()) + "," +
                    FormatShortest(run["max_overlap"].get<double>()) + "," +
                    FormatShortest(run["energy_error_max"].get<double>()) + "," +
                    FormatShortest(run["energy_balance_residual_max"].get<double>()) + "," +
                    std::to_string(run["steps"].get<long>()) + "," +
                    std::to_string(run["rhs_evaluations"].get<long>()) + "," +
                    std::to_string(run["rejected_steps"].get<long>()) + "," +
                    FormatShortest(run["final_time"].get<double>()) + ",0");  // unstable = 0
}

TEST_CASE("[study] impactlab sweep: SIGINT after the first case → exit 130, resume → identical to one run") {
  // 10 ellipsoid-wall cases of ~40 ms CPU each (Seed000 base case, dt = 1e-6 s: ~50000 steps).
  const std::string args = "sweep " + kScenarios + "ellipsoid_wall.toml --vary theta_deg=0,20,40,60,80 --vary "
                           "e_cn=0.5,0.8 --set dt=1e-6";
  const fs::path ref = FreshDir("ref"), cut = FreshDir("cut");
  const Output full = RunCli(args + " --threads 2 --out " + ref.string());
  REQUIRE_MESSAGE(full.status == 0, full.out);
  const std::string reference = WithoutWallTime(ReadFile(ref / "sweep.csv"));
  const auto ref_lines = Lines(reference);
  REQUIRE(ref_lines.size() == 1 + 10);

  // Interrupted run: spawn the binary, wait until the first row is on disk, send SIGINT.
  fs::create_directories(cut);
  const std::string bin = IMPACTLAB_BINARY, scen = kScenarios + "ellipsoid_wall.toml", log = (cut / "log").string();
  std::vector<std::string> argv_s = {bin, "sweep", scen, "--vary", "theta_deg=0,20,40,60,80", "--vary",
                                     "e_cn=0.5,0.8", "--set", "dt=1e-6", "--threads", "1", "--out", (cut / "out").string()};
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  REQUIRE(posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&fa);
  const fs::path partial = cut / "out" / "sweep.csv";
  const auto t0 = std::chrono::steady_clock::now();
  while (Lines(ReadFile(partial)).size() < 2 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20))
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  REQUIRE(kill(pid, SIGINT) == 0);
  int wstatus = 0;
  REQUIRE(waitpid(pid, &wstatus, 0) == pid);
  REQUIRE_MESSAGE(WIFEXITED(wstatus), ReadFile(log));
  CHECK_MESSAGE(WEXITSTATUS(wstatus) == 130, ReadFile(log));
  CHECK(ReadFile(log).find("rerun the same command to resume") != std::string::npos);

  // A strict subset of complete rows, each identical to the uninterrupted run's row.
  const auto cut_lines = Lines(WithoutWallTime(ReadFile(partial)));
  REQUIRE(cut_lines.size() >= 2);
  CHECK(cut_lines.size() < ref_lines.size());
  CHECK(cut_lines[0] == ref_lines[0]);
  for (size_t i = 1; i < cut_lines.size(); ++i) CHECK(cut_lines[i] == ref_lines[i]);  // 1 thread: a prefix

  // Resume (another thread count on purpose): the final file is byte-identical.
  const Output resumed = RunCli(args + " --threads 2 --out " + (cut / "out").string());
  REQUIRE_MESSAGE(resumed.status == 0, resumed.out);
  CHECK(resumed.out.find("resuming: " + std::to_string(cut_lines.size() - 1) + " of 10") != std::string::npos);
  CHECK(WithoutWallTime(ReadFile(partial)) == reference);
}

TEST_CASE("impactlab sweep: unwritable output → exit 2 naming the path - existing results untouched") {
  const std::string base = "sweep " + kScenarios + "hertz_impact.toml --vary e=0.5,0.9 --integrator rk4";
  const fs::path dir = FreshDir("unwritable");
  REQUIRE(RunCli(base + " --out " + dir.string()).status == 0);
  const std::string before = ReadFile(dir / "sweep.csv");
  REQUIRE(Lines(before).size() == 3);

  // Make the directory unwritable: chmod when not root; as root (permissions do not apply) block the exact
  // temporary path the atomic rewrite uses.
  const bool root = geteuid() == 0;
  if (root) fs::create_directories(dir / "sweep.csv.tmp");
  else fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  const Output o = RunCli(base + " --out " + dir.string());
  if (!root) fs::permissions(dir, fs::perms::owner_all);
  CHECK(o.status == 2);
  CHECK_MESSAGE(o.out.find(dir.string()) != std::string::npos, o.out);
  CHECK_MESSAGE(o.out.find("writable") != std::string::npos, o.out);
  CHECK(ReadFile(dir / "sweep.csv") == before);

  // --out below a regular file: cannot be created.
  const Output f = RunCli(base + " --out " + (dir / "sweep.csv" / "sub").string());
  CHECK(f.status == 2);
  CHECK_MESSAGE(f.out.find("--out") != std::string::npos, f.out);
  CHECK(ReadFile(dir / "sweep.csv") == before);
}

TEST_CASE("impactlab sweep: resuming with a different scenario or --vary set is refused, file untouched") {
  const std::string scen = kScenarios + "hertz_impact.toml";
  const fs::path dir = FreshDir("mismatch");
  REQUIRE(RunCli("sweep " + scen + " --vary e=0.5,0.9 --integrator rk4 --out " + dir.string()).status == 0);
  const std::string before = ReadFile(dir / "sweep.csv");
  for (const std::string other : {" --vary e=0.5,0.8", " --vary e=0.5,0.9 --set v0=2", " --vary v0=1,2",
                                  " --vary e=0.5,0.9 --integrator velocity_verlet"}) {
    const Output o = RunCli("sweep " + scen + other + (other.find("--integrator") == std::string::npos
                                                           ? " --integrator rk4" : "") + " --out " + dir.string());
    CHECK_MESSAGE(o.status == 2, other);
    CHECK_MESSAGE(o.out.find("fingerprint") != std::string::npos, o.out);
    CHECK_MESSAGE(o.out.find("sweep.csv") != std::string::npos, o.out);
    CHECK(ReadFile(dir / "sweep.csv") == before);
  }
  // The same sweep again: everything resumed, nothing recomputed, file unchanged.
  const Output same = RunCli("sweep " + scen + " --vary e=0.5,0.9 --integrator rk4 --out " + dir.string());
  CHECK(same.status == 0);
  CHECK(same.out.find("resuming: 2 of 2") != std::string::npos);
  CHECK(ReadFile(dir / "sweep.csv") == before);
}

TEST_CASE("[study] determinism: RunScenario is bitwise repeatable, alone and on two concurrent threads") {
  // Everything but wall_time_s must be identical: run twice in sequence, then twice at the same time.
  auto strip = [](nlohmann::json s) {
    for (auto& run : s["runs"]) run.erase("wall_time_s");
    return s.dump();
  };
  for (const std::string name : {"hertz_impact.toml", "ellipsoid_wall.toml", "sphere_wall_thornton.toml"}) {
    RunRequest req;
    req.scenario = LoadScenario(kScenarios + name);
    const std::string first = strip(RunScenario(req));
    CHECK_MESSAGE(strip(RunScenario(req)) == first, name);
    std::string a, b;
    {
      std::jthread ta([&] { a = strip(RunScenario(req)); });
      std::jthread tb([&] { b = strip(RunScenario(req)); });
    }
    CHECK_MESSAGE(a == first, name);
    CHECK_MESSAGE(b == first, name);
  }
}

TEST_CASE("impactlab sweep: disk full mid-sweep → clear error, stored rows intact - resume → identical") {
  // Needs a small tmpfs (root with CAP_SYS_ADMIN); elsewhere the case reports why it did not run.
  const fs::path mnt = FreshDir("tmpfs");
  fs::create_directories(mnt);
  if (geteuid() != 0 || mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0) {
    MESSAGE("disk-full test not run: mounting a 64 KiB tmpfs needs root with CAP_SYS_ADMIN");
    return;
  }
  struct Unmount {
    fs::path p;
    ~Unmount() { umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt};
  const std::string args = "sweep " + kScenarios + "hertz_impact.toml --vary e=0.5,0.9 --vary v0=0.5:2:20 "
                           "--integrator rk4 --threads 2";
  const fs::path ref = FreshDir("full_ref");
  REQUIRE(RunCli(args + " --out " + ref.string()).status == 0);
  const auto ref_lines = Lines(WithoutWallTime(ReadFile(ref / "sweep.csv")));
  REQUIRE(ref_lines.size() == 1 + 40);  // ~7 KB

  {  // leave 16 KiB = 4 tmpfs pages free: sweep.meta.json, the row journal, the table and its temporary copy;
     // the table outgrows its page after ~4 KB
    std::ofstream filler(mnt / "filler", std::ios::binary);
    filler << std::string(48 * 1024, 'x');
    REQUIRE(filler.good());
  }
  const fs::path out = mnt / "out";
  const Output o = RunCli(args + " --out " + out.string());
  CHECK(o.status == 2);
  CHECK_MESSAGE(o.out.find("No space left on device") != std::string::npos, o.out);
  CHECK_MESSAGE(o.out.find("is unchanged") != std::string::npos, o.out);
  const auto cut = Lines(WithoutWallTime(ReadFile(out / "sweep.csv")));
  REQUIRE(cut.size() > 1);
  CHECK(cut.size() < ref_lines.size());
  CHECK(!fs::exists(out / "sweep.csv.tmp"));
  // Every stored row is complete and equal to the reference row with the same key.
  for (size_t i = 1; i < cut.size(); ++i) {
    const std::string key = cut[i].substr(0, cut[i].find(','));
    CHECK(cut[i] == ref_lines.at(1 + std::stoul(key)));
  }
  fs::remove(mnt / "filler");
  const Output resumed = RunCli(args + " --out " + out.string());
  REQUIRE_MESSAGE(resumed.status == 0, resumed.out);
  CHECK(WithoutWallTime(ReadFile(out / "sweep.csv")) == WithoutWallTime(ReadFile(ref / "sweep.csv")));
}

TEST_CASE("sweep: a stop requested after the first row keeps exactly that row - resume completes it identically") {
  const SweepSpec spec = FastSpec();
  const fs::path ref = FreshDir("stop_ref"), cut = FreshDir("stop_cut");
  SweepOptions o;
  o.threads = 1;
  o.out_dir = ref.string();
  const std::string reference = WithoutWallTime(RunSweep(spec, o).csv);

  o.out_dir = cut.string();
  o.progress = [](const std::string& line) {
    if (line.rfind("[1/", 0) == 0) RequestStop();  // as if SIGINT arrived while row 0 was being stored
  };
  const SweepResult stopped = RunSweep(spec, o);
  ClearStopRequest();
  CHECK(stopped.interrupted);
  CHECK(stopped.rows_done == 1);
  const auto lines = Lines(WithoutWallTime(ReadFile(cut / "sweep.csv")));
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == Lines(reference)[1]);
  CHECK(ReadFile(cut / "sweep.json").find("\"complete\": false") != std::string::npos);

  o.progress = nullptr;
  o.threads = 2;
  const SweepResult resumed = RunSweep(spec, o);
  CHECK(!resumed.interrupted);
  CHECK(resumed.rows_resumed == 1);
  CHECK(WithoutWallTime(ReadFile(cut / "sweep.csv")) == reference);
}

TEST_CASE("resumable table: concurrent Puts from 4 threads lose no row and keep the fixed order") {
  const fs::path path = FreshDir("concurrent") / "t.csv";
  ResumableTable::Options o;
  for (int r = 0; r < 200; ++r) o.order.push_back(std::to_string(r));
  std::string expected = "row,x\n";
  for (int r = 0; r < 200; ++r) expected += std::to_string(r) + "," + FormatShortest(r * 0.1) + "\n";
  {
    ResumableTable t(path, {"row", "x"}, o);
    std::vector<std::jthread> pool;
    for (int w = 0; w < 4; ++w)
      pool.emplace_back([&t, w] {
        for (int r = 199 - w; r >= 0; r -= 4) t.Put(std::to_string(r), {r * 0.1});  // reverse order
      });
  }
  CHECK(ReadFile(path) == expected);
  CHECK(ResumableTable(path, {"row", "x"}, o).size() == 200);
}
