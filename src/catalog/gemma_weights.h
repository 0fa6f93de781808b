// The tensors Gemma-3n and Gemma-4 add to a decoder model (catalog/gemma_config.h reads
// their sizes): per-layer input embeddings, AltUp and LAuReL, Gemma-4's per-expert
// scales. catalog/weights.cc prices each with its own sharding; h-sized vectors among
// them (norms, AltUp's correct_output_scale, the router's scale) are counted as norms.
#pragma once

#include <cstdint>
#include <vector>

#include "catalog/model.h"

namespace kvplan {

// Which weight part a tensor is listed under.
enum class GemmaPart { kPerLayerInput, kAltupLaurel, kRouter };

// How the engines split a tensor over tensor-parallel ranks.
enum class GemmaSplit {
  kReplicated,  // ReplicatedLinear or a plain parameter: whole on every rank
  kTp,          // ColumnParallelLinear / RowParallelLinear: rows x cols / tp a rank
  kVocab,       // VocabParallelEmbedding: rows padded to 64 and split
};

struct GemmaTensor {
  GemmaPart part;
  int64_t rows = 0, cols = 0;  // cols 1: a vector
  GemmaSplit split = GemmaSplit::kReplicated;
};

// The tensors each decoder layer adds (empty for other models).
std::vector<GemmaTensor> GemmaLayerTensors(const ModelSpec& m);

// The tensors the model adds once, beside the token embedding (first pipeline stage).
std::vector<GemmaTensor> GemmaModelTensors(const ModelSpec& m);

}  // namespace kvplan
