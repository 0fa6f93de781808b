// --gpu FILE.json: a user's GPU, read once per path and kept for the program's
// life, so FindGpu hands out a reference as it does for catalog GPUs.
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include <fmt/core.h>

#include "catalog/gpu.h"
#include "kvplan/error.h"

namespace kvplan {

bool IsGpuFile(std::string_view name) {
  constexpr std::string_view kSuffix = ".json";
  if (name.size() <= kSuffix.size()) return false;
  std::string tail = NormalizeGpuName(name.substr(name.size() - kSuffix.size()));
  return tail == kSuffix;
}

const GpuSpec& UserGpuFromFile(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const GpuSpec>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(path);
  if (it != loaded.end()) return *it->second;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("cannot read GPU file '{}'", path));
  std::stringstream text;
  text << in.rdbuf();
  auto gpu = std::make_unique<const GpuSpec>(ParseUserGpu(text.str(), path));
  return *loaded.emplace(path, std::move(gpu)).first->second;
}

}  // namespace kvplan
