// The release in which vLLM first serves an architecture: a launch of an older
// release fails in the model registry before anything is sized, so kvplan
// refuses it there too instead of planning a model the engine cannot load.
#pragma once

#include <optional>
#include <string>

#include "catalog/model.h"
#include "engines/vllm/release.h"

namespace kvplan {

// vLLM's registry error for `model` at `release`, or nullopt when the release
// serves it (or kvplan does not know its first release: such models are planned).
std::optional<std::string> VllmUnsupportedArchitecture(const ModelSpec& model,
                                                       const VllmRelease& release);

// The first release that serves `model`'s architecture ("0.8.4"), or "" when unknown.
std::string VllmFirstReleaseServing(const ModelSpec& model);

}  // namespace kvplan
