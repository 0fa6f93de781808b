// --gpu FILE.json: a user's GPU, read once per path and kept for the program's
// life, so FindGpu hands out a reference as it does for catalog GPUs.
#include <map>
#include <memory>
#include <mutex>

#include "base/input_file.h"
#include "catalog/gpu.h"

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
  // Real GPU files are a few hundred bytes; through the bounded opener, so a
  // FIFO named x.json is refused, not waited on, and a huge file is not read.
  static const InputKind kGpuFile{"GPU file", "a GPU description (a JSON object under 64 KiB)",
                                  int64_t{64} << 10};
  auto gpu = std::make_unique<const GpuSpec>(ParseUserGpu(ReadInputFile(path, kGpuFile), path));
  return *loaded.emplace(path, std::move(gpu)).first->second;
}

}  // namespace kvplan
