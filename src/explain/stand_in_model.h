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

// Whether a stand-in can carry the cell: the largest real cells are under 1 MiB per token per
// rank, so a cell past 16 MiB (or one whose hidden size would pass 2^31) is a garbled KV line,
// and the re-plan goes on as if the log named no model.
bool StandInCanCarry(int64_t cell_bytes_per_rank, int elem_bytes, int attention_tp);

// Throws InputError when !StandInCanCarry (callers check first).
ModelSpec StandInModel(const std::string& id, int64_t cell_bytes_per_rank, int elem_bytes,
                       int attention_tp, int pp, int64_t context_length);

}  // namespace kvplan
