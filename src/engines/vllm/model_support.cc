#include "engines/vllm/model_support.h"

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
  return UnservedArchitectureError("vLLM", release.text, model.architecture, *first);
}

}  // namespace kvplan
