// The graphs and slack stage: what SGLang allocates after the KV pool, out
// of the pre_load_free * (1 - mem_fraction_static) slack: the req_to_token
// pool, a separately sized draft KV pool, the CUDA graphs and (before
// #28855) the draft weights.
#include "engines/sglang/stages.h"

namespace kvplan {
namespace {

// Bytes of the target KV pool: (tokens + page) rows of the cell, per layer
// kind when the pool is hybrid.
int64_t KvPoolBytes(const SglangCell& cell, const SglangTokens& t, int64_t page) {
  if (cell.hybrid_mode == 0) return (t.tokens + page) * cell.bytes;
  // Each kind's own per-layer bytes (engines/sglang/cell.h: MiMo-V2-Flash's sliding
  // layers have their own KV heads).
  return (t.tokens + page) * cell.per_layer_bytes * cell.n_full +
         (t.swa_tokens + page) * cell.swa_layer_bytes * cell.n_swa;
}

}  // namespace

SglangSlack SglangSlackOf(const SglangLaunch& l, const SglangSettings& s, const SglangWeights& w,
                          const SglangCell& cell, const SglangRequestPool& pool,
                          const SglangTokens& t, const SglangVerdict& v, const SglangRunning& run,
                          const ModelSpec& model, const ModelSpec* draft, bool explain) {
  const SglangArgs& a = l.args;
  const SglangEra& era = *l.era;
  const int64_t page = s.page_size;
  SglangSlack sl;
  // Decode graphs: up to v0.5.2 the capture list stops at the pool size.
  sl.graph_max_bs = a.disable_cuda_graph ? 0 : s.defaults.cuda_graph_max_bs;
  if (era.capture_clipped_to_pool && sl.graph_max_bs > pool.max_num_reqs) {
    sl.graph_max_bs = pool.max_num_reqs;
  }
  // mem_cache/memory_pool.py ReqToTokenPool: int32 rows of context + 4 (+ draft tokens)
  sl.draft_columns = l.spec && era.req_to_token_draft_columns ? s.spec.draft_tokens : 0;
  sl.req_to_token = 4 * run.pool_rows * (s.context_length + 4 + sl.draft_columns);
  if (v.ok) sl.kv_pool = KvPoolBytes(cell, t, page);
  if (l.spec && !era.draft_kv_in_cell && draft != nullptr && v.ok) {
    // Before #23862 the draft runner sizes its own pool with the target's token count.
    SglangArgs da = a;
    da.speculative_algorithm.clear();
    const SglangCell dc = SglangCellSize(era, l.version_key, *draft, da, nullptr);
    sl.draft_kv = (t.tokens + page) * dc.bytes;
  }
  // CUDA graphs: kvplan's fit, target plus draft (one shared graph pool).
  sl.graphs = EstimateSglangGraphs(model, draft, a, l.spec, s.spec, sl.graph_max_bs, explain);
  sl.draft_weights_in_slack = era.draft_weights_before_profile ? 0 : w.draft_weights;
  sl.used = sl.req_to_token + sl.graphs.Total() + sl.draft_kv + sl.draft_weights_in_slack;
  return sl;
}

}  // namespace kvplan
