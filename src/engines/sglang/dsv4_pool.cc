#include "engines/sglang/dsv4_pool.h"

#include <algorithm>

#include <fmt/core.h>

#include "base/units.h"
#include "engines/sglang/era.h"
#include "engines/sglang/speculative.h"

namespace kvplan {
namespace {

// DeepSeek V4 (#23882) reached main on 2026-05-07 (older releases: catalog/engine_support.cc);
// the pool split kvplan mirrors (the c128
// state as a fixed request pool, #28612, 2026-07-01) is in the v0.5.15 era (0.5.15 on).
constexpr int64_t kDsv4PoolsSince = SglangVersionKey(0, 5, 15);

// mem_cache/deepseek_v4_memory_pool.py @30cb848 get_compress_state_ring_size (online c128,
// SGLANG_OPT_USE_ONLINE_COMPRESS, is off by default).
int RingSize(int ratio, bool speculative) {
  if (speculative) return ratio == 4 ? 16 : 256;
  return ratio == 4 ? 8 : 128;
}

}  // namespace

bool SglangIsDeepseekV4(const ModelSpec& model) { return !model.compress_ratios.empty(); }

SglangRefusal SglangDeepseekV4Refusal(const ModelSpec& model, int64_t version_key,
                                      const std::string& version) {
  if (!SglangIsDeepseekV4(model)) return {};
  if (version_key < kDsv4PoolsSince) {
    return SglangNotModelled(fmt::format(
        "kvplan: SGLang {}'s DeepSeek-V4 pool split (full, SWA, c4, c128 and compress-state "
        "pools) is not modelled; kvplan models it from 0.5.15 (pool_configurator.py at main "
        "2026-08)",
        version));
  }
  return {};
}

void ApplySglangDeepseekV4Defaults(SglangArgs* a) {
  // arg_groups/overrides.py @30cb848 _deepseek_v4_overrides: the dsv4 backend, 256-token
  // pages on CUDA, swa_full_tokens_ratio 0.1 unless given.
  // (The page size is engines/sglang/settings.cc's ResolvePageSize.)
  a->attention_backend = "dsv4";
  if (!a->swa_full_tokens_ratio) a->swa_full_tokens_ratio = 0.1;
  // overrides.py _deepseek_v4_kv_cache_dtype: auto becomes fp8_e4m3 (bfloat16 allowed).
  if (a->kv_cache_dtype == "auto") a->kv_cache_dtype = "fp8_e4m3";
  // arg_groups/deepseek_v4_hook.py apply_deepseek_v4_defaults: max_running_requests 256.
  if (!a->max_running_requests) a->max_running_requests = 256;
}

SglangDsv4Pool SglangDeepseekV4PoolOf(const ModelSpec& m, const SglangArgs& a, int stage_layers) {
  // pool_configurator.py @30cb848 DSV4PoolConfigurator (the PP-local slice of
  // compress_ratios; kvplan takes the first stage's layers).
  SglangDsv4Pool p;
  const int n = std::min<int>(stage_layers, static_cast<int>(m.compress_ratios.size()));
  p.layers = n;
  for (int i = 0; i < n; ++i) {
    p.c4_layers += m.compress_ratios[i] == 4 ? 1 : 0;
    p.c128_layers += m.compress_ratios[i] == 128 ? 1 : 0;
  }
  const bool speculative = SglangHasDraft(a.speculative_algorithm);
  p.swa_ratio = a.swa_full_tokens_ratio.value_or(0.1);
  p.window = m.sliding_window;
  p.c4_ring = RingSize(4, speculative);
  p.c128_ring = RingSize(128, speculative);
  // _get_bytes_per_full_token: nope fp8 + rope bf16 + 8 scale bytes per token; the indexer's
  // fp8 keys with a float32 scale per 128; states in float32
  // (SGLANG_DSV4_COMPRESS_STATE_DTYPE default) of (kv, score), overlapped (x2) on c4.
  const int64_t head = m.qk_nope_head_dim + m.qk_rope_head_dim;
  p.kv_bytes = m.qk_nope_head_dim + int64_t{m.qk_rope_head_dim} * 2 + 8;
  p.indexer_bytes = m.index_head_dim + m.index_head_dim / 128 * 4;
  p.c4_state_bytes = 2 * 2 * head * 4;
  p.c4_indexer_state_bytes = 2 * 2 * int64_t{m.index_head_dim} * 4;
  const double c4_state_ratio = static_cast<double>(p.c4_ring) / p.window;
  const double kv = static_cast<double>(p.kv_bytes);
  p.bytes_per_full_token =
      p.swa_ratio * kv * n + 1.0 / 4 * kv * p.c4_layers + 1.0 / 128 * kv * p.c128_layers +
      1.0 / 4 * static_cast<double>(p.indexer_bytes) * p.c4_layers +
      p.swa_ratio * c4_state_ratio * static_cast<double>(p.c4_state_bytes) * p.c4_layers +
      p.swa_ratio * c4_state_ratio * static_cast<double>(p.c4_indexer_state_bytes) * p.c4_layers;
  // The draft worker's layer: bytes_per_full_token *= (T + 1) / T.
  if (speculative && n > 0) p.bytes_per_full_token *= static_cast<double>(n + 1) / n;
  // _get_c128_state_fixed_bytes: (slots x ring + ring + 1) rows rounded up to 128, each
  // (kv, score) x head_dim float32, per c128 layer; slots = max_running_requests per
  // worker + 1 (the DeepSeek-V4 hook always sets max_running_requests).
  const int dp = a.enable_dp_attention ? a.dp : 1;
  p.req_slots = a.max_running_requests.value_or(256) / dp + 1;
  if (p.c128_layers > 0) {
    const int64_t rows = CeilDiv(p.req_slots * p.c128_ring + p.c128_ring + 1, 128) * 128;
    p.c128_state_bytes = rows * 2 * head * 4 * p.c128_layers;
  }
  return p;
}

int64_t SglangDeepseekV4PoolBytes(const SglangDsv4Pool& p, int64_t full, int64_t swa) {
  // pool_configurator.py @30cb848 _compute_dsv4_sizes: c4 = full // 4, c128 = full // 128,
  // c4_state = swa // window * ring.
  const int64_t c4_state_slots = p.window > 0 ? swa / p.window * p.c4_ring : 0;
  return swa * p.kv_bytes * p.layers + full / 4 * (p.kv_bytes + p.indexer_bytes) * p.c4_layers +
         full / 128 * p.kv_bytes * p.c128_layers +
         c4_state_slots * (p.c4_state_bytes + p.c4_indexer_state_bytes) * p.c4_layers +
         p.c128_state_bytes;
}

std::string SglangDeepseekV4Formula(const SglangDsv4Pool& p) {
  return fmt::format(
      "DSV4 bytes per full token = {} swa * {} B * {} layers + {} B/4 * {} c4 + {} B/128 * {} "
      "c128 + {} B/4 * {} c4 (indexer) + {} swa * {}/{} ring * ({} + {}) B * {} c4 (states) = "
      "{:.2f}; c128 state pool {} B ({} request slots x {} ring, {} layers) off the budget first",
      p.swa_ratio, p.kv_bytes, p.layers, p.kv_bytes, p.c4_layers, p.kv_bytes, p.c128_layers,
      p.indexer_bytes, p.c4_layers, p.swa_ratio, p.c4_ring, p.window, p.c4_state_bytes,
      p.c4_indexer_state_bytes, p.c4_layers, p.bytes_per_full_token, p.c128_state_bytes,
      p.req_slots, p.c128_ring, p.c128_layers);
}

}  // namespace kvplan
