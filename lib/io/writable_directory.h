// RequireWritableDirectory: creates an output directory and proves, before any work starts, that the
// temporary files the atomic writes (io/atomic_file.h) will create there can be written, so an unwritable
// or missing output location is a clear InvalidParameter naming the option and the path, not a failure
// after minutes of computation. (A disk that fills up later is still caught by AtomicFile::Commit, and the
// previous file is kept.)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace impactlab {

/// Throws InvalidParameter(option, "\"dir\"", ...) if `dir` cannot be created or "<dir>/<name>.tmp" cannot
/// be written for one of `names`. Leaves no probe file behind. Directories it creates are remembered for
/// RemoveEmptyCreatedDirectories.
void RequireWritableDirectory(const std::filesystem::path& dir, const std::vector<std::string>& names,
                              const std::string& option);

/// Removes the directories RequireWritableDirectory created in this process that are still empty (deepest
/// first) and forgets them: a command that fails leaves no empty output folder behind (the CLI calls it on
/// every non-zero exit). Folders holding results, and folders that existed before, are never touched.
void RemoveEmptyCreatedDirectories();

}  // namespace impactlab
