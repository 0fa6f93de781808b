#include "engines/vllm/model_support.h"

#include <fmt/core.h>

#include "catalog/engine_support.h"

namespace kvplan {

std::string VllmFirstReleaseServing(const ModelSpec& model) {
  const std::optional<ServingRelease> first = FirstServingRelease(model.architecture, "vllm");
  return first ? std::string(first->text) : "";
}

std::optional<std::string> VllmUnsupportedArchitecture(const ModelSpec& model,
                                                       const VllmRelease& release) {
  const std::optional<ServingRelease> first = FirstServingRelease(model.architecture, "vllm");
  if (!first || release.AtLeast(first->major, first->minor, first->patch)) return std::nullopt;
  // model_executor/models/registry.py _raise_for_unsupported (v0.6 to v0.18).
  return fmt::format(
      "ValueError: Model architectures ['{}'] are not supported for now. (kvplan: vLLM {} does "
      "not serve it; it was added in {}, {})",
      model.architecture, release.text, first->text, first->source);
}

}  // namespace kvplan
