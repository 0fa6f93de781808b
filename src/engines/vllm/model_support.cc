#include "engines/vllm/model_support.h"

#include <string_view>

#include <fmt/core.h>

namespace kvplan {
namespace {

struct Arrival {
  std::string_view architecture;
  int major, minor, patch;
};

// Only arrivals the release notes (or the model file's PR) pin; an
// architecture missing here is planned on every release.
constexpr Arrival kArrivals[] = {
    // v0.8.3 release notes: "Day 0 Support for Llama 4 Scout and Maverick (#16104)".
    {"Llama4ForConditionalGeneration", 0, 8, 3},
    // v0.8.4 release notes: "Support Qwen3 and Qwen3MoE (#15289)".
    {"Qwen3ForCausalLM", 0, 8, 4},
    {"Qwen3MoeForCausalLM", 0, 8, 4},
    // v0.10.1 release notes: "New model families: GPT-OSS (#22327, ...)".
    {"GptOssForCausalLM", 0, 10, 1},
    // models/kimi_linear.py arrived with vllm-project/vllm#27654, after 0.11.0.
    {"KimiLinearForCausalLM", 0, 11, 1},
};

const Arrival* ArrivalOf(const ModelSpec& model) {
  for (const Arrival& a : kArrivals) {
    if (a.architecture == model.architecture) return &a;
  }
  return nullptr;
}

}  // namespace

std::string VllmFirstReleaseServing(const ModelSpec& model) {
  const Arrival* a = ArrivalOf(model);
  return a ? fmt::format("{}.{}.{}", a->major, a->minor, a->patch) : "";
}

std::optional<std::string> VllmUnsupportedArchitecture(const ModelSpec& model,
                                                       const VllmRelease& release) {
  const Arrival* a = ArrivalOf(model);
  if (a == nullptr || release.AtLeast(a->major, a->minor, a->patch)) return std::nullopt;
  // model_executor/models/registry.py _raise_for_unsupported (v0.6 to v0.11).
  return fmt::format(
      "ValueError: Model architectures ['{}'] are not supported for now. (kvplan: vLLM {} "
      "does not serve it; it arrived in {})",
      model.architecture, release.text, VllmFirstReleaseServing(model));
}

}  // namespace kvplan
