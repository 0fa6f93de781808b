#include "engines/vllm/dsv4_support.h"

#include <fmt/core.h>

namespace kvplan {

std::string VllmDeepseekV4NotModelled(const ModelSpec& model, const VllmRelease& release) {
  if (model.compress_ratios.empty()) return "";
  // model_executor/models/deepseek_v4.py arrived for the model's release (2026-04-24,
  // vllm-project/vllm#40778 points to the day-0 blog); DeepSeek-V4 needs vLLM 0.20.0+
  // (vllm-project/vllm-gaudi#1722) [inferred: the first release holding the file].
  if (!release.AtLeast(0, 20, 0)) {
    return fmt::format("kvplan: vLLM {} predates DeepSeek-V4 ({}); vLLM serves it from 0.20.0",
                       release.text, model.architecture);
  }
  return fmt::format(
      "kvplan: vLLM {}'s DeepSeek-V4 KV cache (per-layer sliding-window, c4/c128 compressed MLA, "
      "indexer and compressor-state caches in shared pages) is not modelled; the weights above "
      "are",
      release.text);
}

}  // namespace kvplan
