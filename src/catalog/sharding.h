// Whether the engines can shard a model the asked way at all: the load-time
// checks SGLang and vLLM make before any memory is planned.
#pragma once

#include <string>
#include <vector>

#include "catalog/model.h"
#include "catalog/weights.h"

namespace kvplan {

// The engine's own error messages for `par`, in the order it would raise
// them (empty when the model shards cleanly). The first one stops the engine.
std::vector<std::string> ShardingProblems(const ModelSpec& model, const Parallelism& par);

}  // namespace kvplan
