#include "io/atomic_file.h"

#include <cerrno>
#include <cstring>

#include "core/errors.h"

namespace impactlab {

AtomicFile::AtomicFile(std::filesystem::path path) : path_(std::move(path)) {
  if (path_.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path_.parent_path(), ec);
    if (ec)
      throw InvalidParameter("output file", "\"" + path_.string() + "\"",
                             "a path whose folder exists or can be created (" + ec.message() + ")");
  }
  tmp_ = path_;
  tmp_ += ".tmp";
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) throw InvalidParameter("output file", "\"" + path_.string() + "\"", "a writable path");
  out_.precision(17);
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.close();
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

void AtomicFile::Commit() {
  if (out_) {
    errno = 0;  // a failure already recorded by the stream keeps the errno of the failing write
    out_.flush();
  }
  if (out_) out_.close();  // close() writes what is still buffered: its failure (e.g. ENOSPC) counts too
  if (!out_ || out_.is_open()) {
    const std::string reason = errno != 0 ? std::strerror(errno) : "write failed";
    throw InvalidParameter("output file", "\"" + path_.string() + "\"",
                           "a writable path with free space (writing " + tmp_.string() + " failed: " + reason +
                               "; the previous " + path_.filename().string() + ", if any, is unchanged)");
  }
  std::filesystem::rename(tmp_, path_);
  committed_ = true;
}

void WriteFileAtomically(const std::filesystem::path& path, const std::string& content) {
  AtomicFile f(path);
  f.stream() << content;
  f.Commit();
}

}  // namespace impactlab
