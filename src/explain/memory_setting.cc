#include "explain/memory_setting.h"

#include <algorithm>
#include <vector>

#include "engines/sglang/memory_settings.h"
#include "engines/vllm/memory_settings.h"

namespace kvplan {
namespace {

size_t IndexIn(const std::vector<std::string>& keys, const std::string& key) {
  return static_cast<size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
}

}  // namespace

size_t MemorySettingRank(const std::string& engine, const std::string& key) {
  const std::vector<std::string>& sglang = SglangMemorySettings();
  const std::vector<std::string>& vllm = VllmMemorySettings();
  if (engine == "sglang") return IndexIn(sglang, key);
  if (engine == "vllm") return IndexIn(vllm, key);
  size_t at = IndexIn(sglang, key);
  return at < sglang.size() ? at : sglang.size() + IndexIn(vllm, key);
}

bool ShapesMemory(const std::string& engine, const std::string& key) {
  size_t end = engine == "sglang" ? SglangMemorySettings().size()
               : engine == "vllm" ? VllmMemorySettings().size()
                                  : SglangMemorySettings().size() + VllmMemorySettings().size();
  return MemorySettingRank(engine, key) < end;
}

bool TooWideForExplain(const std::string& key) {
  return key == "model_path" || key == "model" || key == "speculative_draft_model_path" ||
         key == "cuda_graph_bs";
}

}  // namespace kvplan
