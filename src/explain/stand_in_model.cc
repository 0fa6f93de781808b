#include "explain/stand_in_model.h"

#include <algorithm>
#include <limits>

#include <fmt/core.h>

#include "kvplan/error.h"

namespace kvplan {

bool StandInCanCarry(int64_t cell_bytes_per_rank, int elem_bytes, int attention_tp) {
  if (cell_bytes_per_rank <= 0 || cell_bytes_per_rank > (int64_t{1} << 24)) return false;
  const int64_t head_dim = cell_bytes_per_rank / (2 * std::max(1, elem_bytes));
  return head_dim * std::max(1, attention_tp) <= std::numeric_limits<int>::max();
}

ModelSpec StandInModel(const std::string& id, int64_t cell_bytes_per_rank, int elem_bytes,
                       int attention_tp, int pp, int64_t context_length) {
  ModelSpec m;
  m.id = id;
  m.torch_dtype = elem_bytes >= 4 ? "float32" : "bfloat16";
  m.dtype_bytes = std::max(2, elem_bytes);
  m.num_layers = std::max(1, pp);
  m.layer_kinds.assign(static_cast<size_t>(m.num_layers), LayerKind::kFull);
  m.num_kv_heads = m.num_attention_heads = std::max(1, attention_tp);
  // The largest real cells are under 1 MiB per token per rank (Llama-3.1-405B at TP 1: 516 KB);
  // a cell past 16 MiB comes from a garbled KV line, and its geometry would overflow the
  // model's int fields (found by log_scanner_fuzz: 16,374,004 x 2,027 ranks).
  constexpr int64_t kMaxCellBytes = int64_t{1} << 24;
  if (cell_bytes_per_rank <= 0 || cell_bytes_per_rank > kMaxCellBytes) {
    throw InputError(fmt::format(
        "the log's KV line implies {} B per token per rank; expected 1 B to 16 MiB (a garbled "
        "KV line?)",
        cell_bytes_per_rank));
  }
  // K and V of head_dim each: cell = 1 head x 2 x head_dim x elem per stage layer.
  m.head_dim = m.v_head_dim = static_cast<int>(cell_bytes_per_rank / (2 * std::max(1, elem_bytes)));
  const int64_t hidden = int64_t{m.head_dim} * m.num_attention_heads;
  if (hidden > std::numeric_limits<int>::max()) {
    throw InputError(fmt::format(
        "the log's KV line ({} B per token per rank) over {} attention ranks gives a hidden size "
        "past 2^31; expected a smaller cell or fewer ranks (a garbled log?)",
        cell_bytes_per_rank, m.num_attention_heads));
  }
  m.hidden_size = static_cast<int>(hidden);
  m.max_position_embeddings = context_length;
  return m;
}

}  // namespace kvplan
