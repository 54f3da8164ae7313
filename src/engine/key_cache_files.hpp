// The key cache directory (engine.cache_dir), where native circuits' TEST keys are written:
// private to the daemon's user whatever the umask (directory 0700, key files 0600), and clear
// of the temporary files of writers that died (a key is written to "<key>.tmp<pid>-<thread>"
// and renamed).
#pragma once

#include <filesystem>

namespace cuzk::engine {

// Creates `dir` (0700) when it does not exist; removes the temporary key files whose writing
// process no longer runs (those of a live process, another daemon sharing the directory, stay).
// Returns how many it removed. Throws std::invalid_argument naming the directory when it cannot
// be created.
int prepare_key_cache_dir(const std::filesystem::path& dir);

// Makes a key file 0600 (owner read/write); throws std::runtime_error naming it on failure.
void restrict_key_file(const std::filesystem::path& file);

}  // namespace cuzk::engine
