// Re-plans a logged launch from its own measured figures: the free memory the
// engine measured before and after loading weights (min over ranks, as the
// engine's distributed MIN gives), the KV bytes per token the log's KV line
// implies (or the model's geometry), and the effective settings. Used by
// `kvplan explain` (check the log against the engine model, --set) and
// `kvplan diff` (the effect of each changed setting).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "logs/run_record.h"

namespace kvplan {

// SGLang's inputs to profile_max_num_token, as read from one run.
struct SglangBudget {
  double pre_gib = 0;   // free after distributed init, before weights
  double post_gib = 0;  // free after weights
  std::string pre_source, post_source;
  double mfs = 0;
  int64_t cell_bytes = 0;  // KV bytes per token per rank, 0 when unknown
  std::string cell_source;
  int64_t cell_uncertainty = 0;  // +- bytes, from the log's 2-decimal rounding
  int64_t page_size = 1;
  std::optional<int64_t> max_total_tokens;
  double kv_elem_bytes = 0;  // bytes per KV element behind cell_bytes (0 = unknown)
};

struct SglangVerdict {
  double rest_gib = 0;
  std::optional<int64_t> tokens;  // nullopt when the cell size is unknown
  bool ok = false;
  std::string error;               // the engine's message when it fails
  std::vector<std::string> steps;  // the arithmetic, one line per step
};

// The budget of an SGLang run; nullopt (with the reason in `why`) when the log
// lacks the pre/post-load lines or the fraction.
std::optional<SglangBudget> SglangBudgetOf(const RunRecord& run, std::string* why);

// python/sglang/srt/model_executor/model_runner.py @v0.4.9 profile_max_num_token +
// init_memory_pool: rest = post - pre*(1-mfs); tokens = int(rest*2^30) // cell,
// min(--max-total-tokens), page-aligned; tokens <= 0 -> "Not enough memory".
SglangVerdict ReplanSglang(const SglangBudget& budget);

// Applies `--set FLAG=VALUE` (SGLang flag or server_args name: mem_fraction_static,
// max_total_tokens, page_size, kv_cache_dtype). Throws InputError naming the
// flags kvplan can re-plan when `flag` is not one of them or `value` is bad.
void ApplySglangSet(SglangBudget* budget, const std::string& flag, const std::string& value);

// vLLM: the KV budget from the profiling lines; nullopt when the log lacks them.
struct LoggedVllmBudget {
  double total_gib = 0, util = 0, weights_gib = 0, activation_gib = 0, non_torch_gib = 0;
  double logged_kv_gib = 0;
  bool peak_includes_weights = false;  // ~v0.6.3 "peak_torch_memory" form
};
std::optional<LoggedVllmBudget> VllmBudgetOf(const RunRecord& run);
// vllm/worker/worker.py @v0.7 determine_num_available_blocks:
// kv = total*util - weights - non_torch - activation_peak.
double VllmKvGib(const LoggedVllmBudget& b);

// "--mem-fraction-static" / "mem_fraction_static" -> "mem_fraction_static".
std::string SettingKey(const std::string& flag);

}  // namespace kvplan
