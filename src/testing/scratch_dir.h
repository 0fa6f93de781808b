// For tests that write files: a fresh directory of their own, and reading a file back.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace kvplan::testing {

// A new directory under the system's temporary directory (mkdtemp: a name no other test,
// process or earlier run holds), removed with everything in it when the scope ends.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix = "kvplan-test") {
    std::string name = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (mkdtemp(name.data()) != nullptr) {
      path_ = name;
    } else {
      ADD_FAILURE() << "cannot make a scratch directory " << name;
    }
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside the directory.
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// The bytes of the file at `path`; "" when it cannot be read.
inline std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace kvplan::testing
