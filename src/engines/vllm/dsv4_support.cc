#include "engines/vllm/dsv4_support.h"

#include <fmt/core.h>

namespace kvplan {

std::string VllmDeepseekV4NotModelled(const ModelSpec& model, const VllmRelease& release) {
  if (model.compress_ratios.empty()) return "";
  // Releases before the model are refused earlier, by the registry (catalog/engine_support.h).
  return fmt::format(
      "kvplan: vLLM {}'s DeepSeek-V4 KV cache (per-layer sliding-window, c4/c128 compressed MLA, "
      "indexer and compressor-state caches in shared pages) is not modelled; its weights per GPU "
      "are planned (above)",
      release.text);
}

}  // namespace kvplan
