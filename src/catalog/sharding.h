// Whether an engine can shard a model the asked way at all: the load-time
// divisibility checks each engine makes before any memory is planned, in its
// own order and words. The one owner of these rules: the engines call it.
#pragma once

#include <string>
#include <vector>

#include "catalog/model.h"
#include "catalog/weights.h"

namespace kvplan {

// Whose checks: each engine raises its own errors, in its own order.
enum class ShardingEngine { kVllm, kSglang, kTrtllm };

// The engine's own error messages for `par`, in the order it would raise them
// (empty when the model shards cleanly). The first one stops the engine. For
// vLLM, par.ep is the expert-parallel size (tp x dp with
// --enable-expert-parallel, else 1); for SGLang, --ep-size.
std::vector<std::string> ShardingProblems(const ModelSpec& model, const Parallelism& par,
                                          ShardingEngine engine);

// vLLM's checks and words (what `kvplan models show` reports).
std::vector<std::string> ShardingProblems(const ModelSpec& model, const Parallelism& par);

// The vocabulary as the engines' VocabParallelEmbedding pads it before
// splitting it over TP: up to a multiple of 64.
int64_t PaddedVocab(int64_t vocab_size);

}  // namespace kvplan
