// A launch of a vLLM release older than the first that serves its architecture
// (the table: catalog/engine_support.h) fails in the model registry before
// anything is sized: kvplan refuses the plan there too, with the registry's words.
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
