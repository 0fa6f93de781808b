// SGLang's DeepSeek-V4 memory pools: one owner for the defaults the DeepSeek-V4 hook
// applies, the bytes per full-pool token DSV4PoolConfigurator divides the budget by, and the
// request-scoped c128 compress-state pool it takes off first. Rules as at main 2026-08-11
// (commit 30cb848d4, python/sglang/srt/model_executor/pool_configurator.py and
// arg_groups/overrides.py / deepseek_v4_hook.py); kvplan's v0.5.15 era (0.5.15 - main).
#pragma once

#include <cstdint>
#include <string>

#include "catalog/model.h"
#include "engines/sglang/refusal.h"
#include "engines/sglang/sglang.h"

namespace kvplan {

// DeepSeek-V4: per-layer compressed attention (ModelSpec::compress_ratios).
bool SglangIsDeepseekV4(const ModelSpec& model);

// Why kvplan does not plan DeepSeek-V4 on this release (kNotModelled; kNone when it does):
// releases before the v0.5.15 era split the pools another way (or predate the model).
SglangRefusal SglangDeepseekV4Refusal(const ModelSpec& model, int64_t version_key,
                                      const std::string& version);

// The DeepSeek-V4 defaults: the dsv4 attention backend, swa_full_tokens_ratio 0.1 when not
// given, kv_cache_dtype auto -> fp8_e4m3, max_running_requests 256 when not given (the
// 256-token pages are settings.cc's ResolvePageSize).
void ApplySglangDeepseekV4Defaults(SglangArgs* args);

// DSV4PoolConfigurator's terms for one launch.
struct SglangDsv4Pool {
  int layers = 0, c4_layers = 0, c128_layers = 0;  // the PP stage's layers
  double swa_ratio = 0;                            // swa_full_tokens_ratio
  int window = 0;                                  // sliding_window (the SWA page)
  int c4_ring = 0, c128_ring = 0;                  // compress-state ring sizes
  int64_t kv_bytes = 0;                            // per token per layer: nope fp8 + rope bf16 + 8
  int64_t indexer_bytes = 0;                       // per compressed token of a c4 layer
  int64_t c4_state_bytes = 0, c4_indexer_state_bytes = 0;  // per state slot (fp32)
  double bytes_per_full_token = 0;  // the divisor (times (T + 1) / T with a draft)
  int64_t c128_state_bytes = 0;     // the fixed c128 state pool, taken off the budget first
  int64_t req_slots = 0;            // max_running_requests per worker + 1
};

// The pool terms; `stage_layers` the largest PP stage's layer count, taken from its start.
SglangDsv4Pool SglangDeepseekV4PoolOf(const ModelSpec& model, const SglangArgs& args,
                                      int stage_layers);

// The bytes of the pools _compute_dsv4_sizes gives `full` and `swa` tokens: SWA (every
// layer), c4 and c128 compressed KV, the c4 indexer, the c4 states and the c128 state pool.
int64_t SglangDeepseekV4PoolBytes(const SglangDsv4Pool& pool, int64_t full, int64_t swa);

// The formula of the divisor and the fixed state pool, for the cell_size stage.
std::string SglangDeepseekV4Formula(const SglangDsv4Pool& pool);

}  // namespace kvplan
