#include "io/writable_directory.h"

#include <fstream>

#include "core/errors.h"

namespace impactlab {

void RequireWritableDirectory(const std::filesystem::path& dir, const std::vector<std::string>& names,
                              const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
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
