// The tokens, verdict and running-requests stages: max_total_num_tokens from
// rest_memory with its clamps in the engine's order, the request pool, the
// failure messages and max_running_requests.
#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "base/units.h"
#include "engines/sglang/stages.h"

namespace kvplan {

int64_t SglangProfiledTokens(const SglangBudget& b, const SglangCell& cell) {
  // model_runner.py profile_max_num_token: int(rest_memory * 2^30) // cell_size
  if (cell.hybrid_mode == 2) {
    return static_cast<int64_t>(
        std::floor(static_cast<double>(b.rest_bytes) / cell.hybrid_divisor));
  }
  if (cell.hybrid_mode == 3) {
    // pool_configurator.py @30cb848 DSV4PoolConfigurator.calculate_pool_sizes:
    // int(max(available - c128_state_fixed, 0) / bytes_per_full_token)
    const int64_t left = std::max<int64_t>(b.rest_bytes - cell.dsv4.c128_state_bytes, 0);
    return static_cast<int64_t>(std::floor(static_cast<double>(left) / cell.hybrid_divisor));
  }
  return FloorDiv(b.rest_bytes, cell.bytes);
}

SglangRequestPool SglangRequestPoolOf(const SglangLaunch& l, const SglangSettings& s,
                                      int64_t profiled) {
  const SglangArgs& a = l.args;
  SglangRequestPool p;
  // server_args.py (#4908): speculative decoding sets max_running_requests to
  // 48, which the engine then treats as if the user had given it.
  p.user_reqs = a.max_running_requests;
  if (!p.user_reqs && l.spec) {
    p.user_reqs = 48;
    p.spec_reset = true;
  }
  p.attn_dp = a.enable_dp_attention ? a.dp : 1;
  if (p.user_reqs) {
    p.max_num_reqs = *p.user_reqs;
  } else {
    // model_runner.py: min(max(int(tokens / context_len * 512), 2048), 4096)
    p.max_num_reqs = std::min<int64_t>(
        std::max<int64_t>(TruncToInt64(static_cast<double>(profiled) / s.context_length * 512),
                          2048),
        4096);
  }
  return p;
}

void SglangCapPoolByState(const SglangStatePool& state, SglangRequestPool* p) {
  if (!state.active) return;
  // model_runner.py @v0.5.5 init_memory_pool: max_num_reqs <= max_mamba_cache_size // ratio
  p->state_cap = state.slots / state.slots_per_request;
  p->max_num_reqs = std::min(p->max_num_reqs, p->state_cap);
}

SglangTokens SglangTokensOf(const SglangLaunch& l, const SglangSettings& s, const SglangCell& cell,
                            const SglangRequestPool& pool, const ModelSpec& model,
                            int64_t profiled) {
  const SglangArgs& a = l.args;
  const int64_t page = s.page_size;
  SglangTokens t;
  t.profiled = profiled;
  int64_t tokens = profiled;
  if (l.spec && l.era->spec_token_headroom) {
    // model_runner.py @v0.5.3 init_memory_pool: draft_runner_cache_size (#15748 removed it)
    const SglangSpecParams& sp = s.spec;
    t.headroom = pool.max_num_reqs * sp.steps * sp.topk + pool.max_num_reqs * sp.draft_tokens + 100;
    tokens += t.headroom;
  }
  t.before_user_cap = tokens;
  if (a.max_total_tokens) tokens = std::min(tokens, *a.max_total_tokens);
  tokens = FloorDiv(tokens, page) * page;
  if (cell.hybrid_mode == 1) {
    // model_runner.py set_num_token_hybrid (v0.5.x): the all-layer count is
    // split; max_total_num_tokens becomes the full-layer count.
    const double total = static_cast<double>(tokens) * model.num_layers;
    const double full = total / (cell.swa_ratio * cell.n_swa + cell.n_full);
    tokens = FloorDiv(static_cast<int64_t>(full), page) * page;
    t.swa_tokens = FloorDiv(static_cast<int64_t>(full * cell.swa_ratio), page) * page;
  } else if (cell.hybrid_mode >= 2) {
    // _compute_dsv4_sizes (mode 3) splits the SWA pool as the per-kind cell does.
    t.swa_tokens =
        FloorDiv(static_cast<int64_t>(static_cast<double>(tokens) * cell.swa_ratio), page) * page;
  }
  t.tokens = tokens;
  return t;
}

SglangVerdict SglangVerdictOf(const SglangLaunch& l, const SglangSettings& s, const SglangBudget& b,
                              const SglangTokens& t) {
  const SglangEra& era = *l.era;
  const double mfs = s.mem_fraction_static;
  SglangVerdict v;
  if (era.rest_memory_error && b.rest_gib <= 0) {
    // kv_cache_configurator.py @main 2026-08 (#28855): ValueError on rest_memory <= 0
    const double minimum = 1 - b.post_gib / b.pre_gib;
    const double suggested = std::ceil(minimum * 1000) / 1000;
    v.ok = false;
    v.error_message = fmt::format(
        "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static={}. "
        "Raise --mem-fraction-static above {:.3f} (minimum viable = 1 - available/pre = {:.4f}). "
        "If using speculative decoding, draft weights are now counted.",
        mfs, suggested, minimum);
    return v;
  }
  if (t.tokens <= 0) {
    // model_runner.py @v0.5.3 init_memory_pool: RuntimeError when no token fits
    v.ok = false;
    v.error_message = "Not enough memory. Please try to increase --mem-fraction-static.";
    if (era.error_names_mfs_server_args) {
      v.error_message +=
          fmt::format(" Current value: self.server_args.mem_fraction_static={}", mfs);
    } else if (era.error_names_mfs) {
      v.error_message += fmt::format(" Current value: mem_fraction_static={}", mfs);
    }
  }
  return v;
}

SglangRunning SglangRunningOf(const SglangLaunch& l, const SglangRequestPool& pool,
                              const SglangTokens& t) {
  const SglangEra& era = *l.era;
  SglangRunning run;
  if (era.scheduler_min_pool) {
    // managers/tp_worker.py @v0.5.3: min(tokens // 2 or user // dp, req_to_token_pool.size)
    const int64_t want = pool.user_reqs ? *pool.user_reqs / pool.attn_dp : t.tokens / 2;
    run.max_running_requests = std::min(want, pool.max_num_reqs);
    run.pool_rows = pool.max_num_reqs + era.req_to_token_extra_rows;
  } else {
    // kv_cache_configurator.py resolve_max_num_reqs (2026): per worker, the
    // pool holds one padding row more.
    const int64_t want = pool.user_reqs ? *pool.user_reqs / pool.attn_dp : pool.max_num_reqs;
    run.max_running_requests = std::min(want, t.tokens / 2);
    run.pool_rows = std::max<int64_t>(run.max_running_requests, 0) + era.req_to_token_extra_rows;
  }
  // kv_cache_configurator.py resolve_max_num_reqs (2026): mamba models also
  // take min(., max_mamba_cache_size // mamba_ratio), the user's value included.
  if (pool.state_cap >= 0) {
    run.max_running_requests = std::min(run.max_running_requests, pool.state_cap);
  }
  if (run.max_running_requests < 0) run.max_running_requests = 0;
  return run;
}

}  // namespace kvplan
