// A model for the planners when a logged run's model is not in kvplan's
// catalog: one full-attention layer per pipeline stage and one KV head per
// attention rank, sized so the KV bytes per token per rank equal what the
// log's KV line implies. The weights come from the log's measured memory, so
// the cell size is all the planners need from it.
#pragma once

#include <cstdint>
#include <string>

#include "catalog/model.h"

namespace kvplan {

ModelSpec StandInModel(const std::string& id, int64_t cell_bytes_per_rank, int elem_bytes,
                       int attention_tp, int pp, int64_t context_length);

}  // namespace kvplan
