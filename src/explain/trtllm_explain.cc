#include "explain/trtllm_explain.h"

#include <cmath>

#include <fmt/core.h>

#include "base/format.h"
#include "base/text.h"
#include "base/units.h"
#include "engines/trtllm/stages.h"

namespace kvplan {
namespace {

// The figures logs/trtllm_lines.cc reads, in start-up order: the engine and
// its allocations, then the KV pool and its blocks; last, the PyTorch backend's
// out-of-memory verdict (trtllm_lines.cc ExecutorOomDetail).
constexpr const char* kTrtllmFigureKeys[] = {
    "mpi_world_size",        "engine_size_mib",
    "trt_managed_gpu_mib",   "execution_context_mib",
    "runtime_buffers_gb",    "decoder_gb",
    "kv_cache_bytes",        "kv_cache_gib",
    "kv_cache_mib",          "max_tokens_in_paged_kv_cache",
    "tokens_per_block",      "primary_blocks",
    "secondary_blocks",      "max_blocks_per_sequence",
    "attention_window_size", "kv_sizing_total_gib",
    "kv_sizing_free_gib",    "total_gpu_memory_gib",
    "free_before_model_gib", "free_after_model_gib",
    "free_at_failure_gib",
};

// C++ KvCacheConfig::kDefaultGpuMemFraction (executor.h, TensorRT-LLM 0.9 to 1.x).
constexpr double kTrtllmDefaultFraction = 0.9;

std::optional<int64_t> LoggedKvBytes(const RunRecord& r) {
  if (std::optional<double> b = r.Figure("kv_cache_bytes")) return std::llround(*b);
  if (std::optional<double> g = r.Figure("kv_cache_gib")) {
    return std::llround(*g * static_cast<double>(kGiB));
  }
  if (std::optional<double> m = r.Figure("kv_cache_mib")) {
    return std::llround(*m * static_cast<double>(kMiB));
  }
  return std::nullopt;
}

// TensorRT-LLM sizes the pool as free memory at KV sizing x the fraction
// (kvCacheManager.cpp calculateFreeMemBytes; PyTorch backend _util.py
// KvCacheCreator): no excerpt of the corpus prints that free memory.
std::string MissingTrtllmFigure(const TrtllmExplain& e, const RunRecord& r) {
  if (!e.logged_tokens && !e.kv_bytes && r.Figure("free_at_failure_gib")) {
    return "no KV-cache line: the executor failed for memory before the pool was allocated "
           "(the component that did not fit is in the notes, with the free memory before it)";
  }
  if (!e.logged_tokens && !e.kv_bytes) {
    return "no KV-cache line: the log stops before TensorRT-LLM's \"Allocated N GiB for max "
           "tokens in paged KV cache (T)\" (or \"Using T tokens in paged KV cache\")";
  }
  return "missing: the free memory at KV sizing (the KV cache manager's \"Memory usage when "
         "calculating max tokens in paged kv cache: total: ..., available: ... GiB\", or the "
         "PyTorch backend's \"Peak memory during memory usage profiling\" line); the pool is "
         "that free memory x --kv_cache_free_gpu_memory_fraction (default 0.9)";
}

// The re-plan through the planner's budget and blocks stages: the free memory the log
// prints at KV sizing x the fraction (never printed: the default, assumed), over the log's
// own bytes per token, so what it checks is the budget rule against the logged tokens.
void ReplanTrtllm(const RunRecord& r, TrtllmExplain* e) {
  std::optional<double> free_gib = r.Figure("kv_sizing_free_gib");
  if (!free_gib || !e->bytes_per_token || *e->bytes_per_token <= 0) return;
  TrtllmDefaults d;
  d.fraction = kTrtllmDefaultFraction;
  d.tokens_per_block = std::llround(r.Figure("tokens_per_block").value_or(64));
  TrtllmTerms t;
  t.post_load_free = GiBToNearestBytes(*free_gib);
  TrtllmBudget b = TrtllmKvBudget(t, d);
  TrtllmCell c;
  c.per_token = *e->bytes_per_token;
  TrtllmBlocks k = TrtllmTokenBlocks(b, c, TrtllmArgs{}, d);
  e->unavailable.clear();
  e->free_gib = *free_gib;
  e->fraction = d.fraction;
  e->kv_gib = ToGiB(b.available);
  e->tokens = k.tokens;
  e->relative =
      static_cast<double>(k.tokens - *e->logged_tokens) / static_cast<double>(*e->logged_tokens);
  e->steps = {
      fmt::format("budget: free at KV sizing {:.2f} GiB (measured) x free_gpu_memory_fraction "
                  "{:g} (the default, assumed: the log prints none) = {:.2f} GiB",
                  *free_gib, d.fraction, e->kv_gib),
      fmt::format("blocks: {} / {} B per token (the log's KV line) = {} tokens, in {} blocks "
                  "of {} = {} tokens",
                  FormatGiB(b.available), WithThousands(c.per_token), WithThousands(k.max_tokens),
                  WithThousands(k.blocks), d.tokens_per_block, WithThousands(k.tokens))};
}

}  // namespace

TrtllmExplain ExplainTrtllm(const RunRecord& r) {
  TrtllmExplain e;
  for (const char* key : kTrtllmFigureKeys) {
    if (std::optional<double> v = r.Figure(key)) e.figures.emplace_back(key, *v);
  }
  if (std::optional<double> t = r.Figure("max_tokens_in_paged_kv_cache")) {
    e.logged_tokens = std::llround(*t);
  }
  e.kv_bytes = LoggedKvBytes(r);
  if (e.kv_bytes && e.logged_tokens && *e.logged_tokens > 0) {
    e.bytes_per_token =
        std::llround(static_cast<double>(*e.kv_bytes) / static_cast<double>(*e.logged_tokens));
  }
  std::optional<double> blocks = r.Figure("primary_blocks");
  std::optional<double> per_block = r.Figure("tokens_per_block");
  if (blocks && per_block) e.block_tokens = std::llround(*blocks * *per_block);
  if (e.kv_bytes) {
    e.implied_free_gib =
        static_cast<double>(*e.kv_bytes) / kTrtllmDefaultFraction / static_cast<double>(kGiB);
  }
  e.unavailable = MissingTrtllmFigure(e, r);
  ReplanTrtllm(r, &e);
  return e;
}

}  // namespace kvplan
