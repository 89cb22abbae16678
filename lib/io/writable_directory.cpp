#include "io/writable_directory.h"

#include <fstream>
#include <mutex>

#include "core/errors.h"

namespace impactlab {

namespace {
std::mutex created_mutex;
std::vector<std::filesystem::path>& Created() {
  static std::vector<std::filesystem::path> created;  // in creation order, parents first
  return created;
}
}  // namespace

void RemoveEmptyCreatedDirectories() {
  std::lock_guard lock(created_mutex);
  auto& created = Created();
  for (auto it = created.rbegin(); it != created.rend(); ++it) {
    std::error_code ec;
    if (std::filesystem::is_directory(*it, ec) && std::filesystem::is_empty(*it, ec) && !ec)
      std::filesystem::remove(*it, ec);
  }
  created.clear();
}

void RequireWritableDirectory(const std::filesystem::path& dir, const std::vector<std::string>& names,
                              const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> missing;  // dir and its missing ancestors, deepest first
  for (fs::path p = fs::absolute(dir, ec); !ec && !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  ec.clear();
  fs::create_directories(dir, ec);
  {
    std::lock_guard lock(created_mutex);
    for (auto it = missing.rbegin(); it != missing.rend(); ++it)
      if (std::error_code e; fs::is_directory(*it, e)) Created().push_back(*it);
  }
  if (ec || !fs::is_directory(dir))
    throw InvalidParameter(option, "\"" + dir.string() + "\"",
                           "a directory that exists or can be created (" +
                               (ec ? ec.message() : std::string("not a directory")) + ")");
  for (const auto& name : names) {
    fs::path probe = dir / name;
    probe += ".tmp";
    bool ok = false;
    {
      std::ofstream f(probe, std::ios::binary | std::ios::trunc);
      if (f) {
        f << "probe\n";
        f.flush();
        ok = static_cast<bool>(f);
      }
    }
    std::error_code rm;
    if (fs::is_regular_file(probe, rm)) fs::remove(probe, rm);
    if (!ok)
      throw InvalidParameter(option, "\"" + dir.string() + "\"",
                             "a writable directory (cannot create " + probe.string() +
                                 "); nothing was computed and existing results are untouched");
  }
}

}  // namespace impactlab
