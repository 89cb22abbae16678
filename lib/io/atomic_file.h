// AtomicFile: write to "<path>.tmp" and rename over <path> on Commit(), so a crash or an interrupted sweep
// never leaves a half-written result and never destroys the previous one.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace impactlab {

class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path path);
  ~AtomicFile();  // discards the temporary file if Commit() was not called
  std::ofstream& stream() { return out_; }
  void Commit();

 private:
  std::filesystem::path path_, tmp_;
  std::ofstream out_;
  bool committed_ = false;
};

/// Writes `content` to `path` atomically (creating parent directories).
void WriteFileAtomically(const std::filesystem::path& path, const std::string& content);

}  // namespace impactlab
