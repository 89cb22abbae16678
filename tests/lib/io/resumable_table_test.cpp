// ResumableTable with a journal (lib/io/resumable_table.h): rows are appended to "<path>.journal" and the
// ordered file is rewritten only O(log n) times, yet the final file is byte-identical to the
// rewrite-every-row table; a journal left by a killed run (with a torn last line) is read back; a journal
// of another computation is refused and left untouched.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "core/errors.h"
#include "io/resumable_table.h"

using namespace impactlab;
namespace fs = std::filesystem;

namespace {

fs::path FreshDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("impactlab_resumable_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t Lines(const fs::path& p) {
  const std::string s = ReadAll(p);
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

ino_t Inode(const fs::path& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

ResumableTable::Options Journaled(size_t n) {
  ResumableTable::Options o;
  o.signature = "test v1";
  o.strict = true;
  o.journal = true;
  for (size_t r = 0; r < n; ++r) o.order.push_back(std::to_string(r));
  return o;
}

std::vector<std::string> Row(size_t r) { return {std::to_string(r * 0.5), "ok"}; }

}  // namespace

TEST_CASE("ResumableTable journal: O(log n) rewrites of the file, final file byte-identical to rewrite-every-row") {
  const size_t n = 4000;
  const fs::path dir = FreshDir("journal");
  const std::vector<std::string> cols = {"row", "x", "status"};
  ResumableTable::Options plain = Journaled(n);
  plain.journal = false;
  ResumableTable reference("", cols, plain);  // in memory: the text the plain table writes
  std::set<ino_t> versions;                   // each atomic rewrite (rename) gives the file a new inode
  {
    ResumableTable t(dir / "t.csv", cols, Journaled(n));
    for (size_t k = 0; k < n; ++k) {
      const size_t r = (k * 7919) % n;  // out of order, as parallel workers finish
      t.PutCells(std::to_string(r), Row(r));
      reference.PutCells(std::to_string(r), Row(r));
      versions.insert(Inode(dir / "t.csv"));
      // every stored row is on disk at once: in the file or in the journal
      if (k == n / 2) {
        const size_t lines = Lines(dir / "t.csv") + Lines(t.journal_path());
        const size_t heads = 2 + (fs::exists(t.journal_path()) ? 2 : 0);
        CHECK(lines - heads == k + 1);
      }
    }
    // geometric rewrites (every 1/8 of the table): ~ln(4000)/ln(9/8) + 8 ≈ 78, not 4000
    CHECK(versions.size() < 100);
    t.Flush();
    CHECK(!fs::exists(t.journal_path()));
    CHECK(ReadAll(dir / "t.csv") == reference.Text());
  }
  fs::remove_all(dir);
}

TEST_CASE("ResumableTable journal: a killed run's journal (torn last line) is read back, the torn row is not") {
  const size_t n = 50;
  const fs::path dir = FreshDir("killed"), saved = FreshDir("killed_saved");
  const std::vector<std::string> cols = {"row", "x", "status"};
  {
    ResumableTable t(dir / "t.csv", cols, Journaled(n));
    for (size_t r = 0; r < 29; ++r) t.PutCells(std::to_string(r), Row(r));
    // rewritten at 26 rows (8·pending ≥ size): rows 26–28 are only in the journal
    REQUIRE(fs::exists(t.journal_path()));
    CHECK(Lines(dir / "t.csv") == 2 + 26);
    // the state a SIGKILL leaves: copy the files before the destructor folds the journal in
    fs::copy(dir / "t.csv", saved / "t.csv");
    fs::copy(t.journal_path(), saved / "t.csv.journal");
  }
  std::ofstream(saved / "t.csv.journal", std::ios::app) << "29,14";  // the append of row 29 was cut short
  ResumableTable again(saved / "t.csv", cols, Journaled(n));
  CHECK(again.size() == 29);
  for (size_t r = 0; r < 29; ++r) CHECK(again.GetCells(std::to_string(r)) == Row(r));
  CHECK(!again.Has("29"));
  CHECK(!fs::exists(again.journal_path()));  // folded into the file at once
  CHECK(ReadAll(saved / "t.csv") == ReadAll(dir / "t.csv"));
  fs::remove_all(dir);
  fs::remove_all(saved);
}

TEST_CASE("ResumableTable journal: another computation's journal is refused and left untouched") {
  const fs::path dir = FreshDir("foreign");
  const std::vector<std::string> cols = {"row", "x", "status"};
  std::ofstream(dir / "t.csv.journal") << "# other v9\nrow,x,status\n0,1,ok\n";
  const std::string before = ReadAll(dir / "t.csv.journal");
  CHECK_THROWS_AS(ResumableTable(dir / "t.csv", cols, Journaled(3)), InvalidParameter);
  CHECK(ReadAll(dir / "t.csv.journal") == before);
  CHECK(!fs::exists(dir / "t.csv"));
  fs::remove_all(dir);
}
