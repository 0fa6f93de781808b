// The pieces of a vLLM plan shared by the era files: the resolved memory terms,
// the KV budget an era derives from them, and the KV report (blocks, tokens,
// concurrency, the start-up check) an era prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines/common/plan.h"
#include "engines/vllm/kv_spec.h"
#include "engines/vllm/release.h"

namespace kvplan {

// One rank's memory terms, each either measured (from a log) or estimated.
struct VllmTerms {
  int64_t total = 0;
  double util = 0.9;
  int64_t weights = 0;
  int64_t activation = 0;
  int64_t non_torch = 0;
  int64_t cuda_graph = 0;  // estimate (0.18+) or kvplan's estimate of the capture
  int64_t pre_load_free = 0;
  bool pre_load_free_measured = false;
  std::optional<int64_t> peak_torch;       // V0 legacy log: weights + activation
  std::optional<int64_t> available_kv;     // measured "Available KV cache memory"
  std::optional<int64_t> kv_cache_memory;  // --kv-cache-memory
  bool enforce_eager = false;
  bool estimate_cudagraphs = true;   // VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS (0.18+)
  int64_t sampler_rows = 0;          // rows of the dummy sampler run the estimate counts
  bool activation_from_log = false;  // a logged peak or KV size replaces the estimate
  // Provenance for the stage text: "measured" or "estimated".
  std::string weights_src, activation_src, non_torch_src, graph_src, total_src;
};

// The KV budget an era's rule derives from the terms (numbers only; the
// stage text is DescribeVllm*Budget's).
struct VllmBudget {
  double requested = 0;        // total * util, as vLLM computes it (float)
  int64_t available = 0;       // bytes for the KV cache on this rank
  std::string error;           // a start-up error before any KV sizing (the engine's words)
  int64_t graph_after_kv = 0;  // CUDA graphs captured after the KV cache (from the headroom)
  int64_t peak = 0;            // V0 0.6 peak_torch, V1 before 0.9.2 the peak
  int64_t other = 0;           // V1 before 0.9.2: memory in use before start-up
  int64_t non_kv = 0;          // V1 0.9.2+: weights + torch peak + non-torch increases
  int64_t graph_subtracted =
      0;  // V1 0.20+ (0.18+ opted in): the CUDA-graph estimate taken off the budget
  bool subtract_graph = false;
  double kv_from_terms = 0;  // the rule's result before --kv-cache-memory or a log replaces it
  enum class Source { kTerms, kFlag, kLog } source = Source::kTerms;  // what `available` is
};

// The text of a budget: its stages, warnings and the lines the engine prints.
struct VllmBudgetText {
  std::vector<Stage> stages;
  std::vector<std::string> warnings;
  std::vector<std::string> log_lines;
  // Printed once the KV cache is allocated and the graphs captured (after the report's lines).
  std::vector<std::string> log_lines_after_start;
};

// The bytes the KV cache gets from an era's result `kv` (vLLM's float): the log's measured
// "Available KV cache memory" instead where a log printed one (source kLog), floored to whole
// bytes. Every era's rule ends here (engines/vllm/eras/v0_6_0.cc, where it starts).
void SetVllmAvailableKv(const VllmTerms& t, double kv, VllmBudget* b);

// One pair per era: the rule, and its text.
VllmBudget VllmV0Budget(const VllmTerms& t, VllmEra era);  // engines/vllm/eras/v0_6_0.cc
VllmBudgetText DescribeVllmV0Budget(const VllmTerms& t, const VllmBudget& b, VllmEra era);
VllmBudget VllmV1EarlyBudget(const VllmTerms& t);  // engines/vllm/eras/v0_8_0.cc
VllmBudgetText DescribeVllmV1EarlyBudget(const VllmTerms& t, const VllmBudget& b);
VllmBudget VllmV1Budget(const VllmTerms& t);               // engines/vllm/eras/v0_9_2.cc
VllmBudget VllmV1GraphEstimateBudget(const VllmTerms& t);  // engines/vllm/eras/v0_20_0.cc
VllmBudgetText DescribeVllmV1GraphEstimateBudget(const VllmTerms& t, const VllmBudget& b,
                                                 const VllmRelease& r);
// The per-instance V1 budget of engines/vllm/eras/v0_9_2.cc, with or without the CUDA-graph term.
VllmBudget VllmV1ProfiledBudget(const VllmTerms& t, bool subtract_graph);
VllmBudgetText DescribeVllmV1ProfiledBudget(const VllmTerms& t, const VllmBudget& b,
                                            const VllmRelease& r);

// engines/vllm/kv_cache_memory_lines.cc (V1 from 0.10.2): the line printed instead of "Available
// KV cache memory" when --kv-cache-memory sizes the cache, and the suggested --kv-cache-memory
// values printed after the graphs are captured when the profile sized it.
std::string DescribeVllmKvCacheMemoryFlagLine(const VllmTerms& t, const VllmRelease& r);
std::string DescribeVllmKvCacheMemoryHint(const VllmTerms& t, const VllmBudget& b,
                                          const VllmRelease& r);

struct VllmKvReport {
  bool ok = false;
  std::string error;
  int64_t num_blocks = 0;
  int64_t num_cpu_blocks = 0;  // V0
  int64_t tokens = 0;          // as the era prints it
  double concurrency = 0;      // as the era computes it
  int64_t needed = 0;          // KV one request at max_model_len needs
  int64_t estimated_max_len = 0;
  // How tokens follow from the blocks: blocks x block_size (V0, V1 before
  // 0.9.2), blocks // groups x block_size (0.9.2 to 0.25), or
  // int(concurrency x max_model_len) (0.26+).
  enum class TokenRule { kBlocksTimesBlockSize, kBlocksPerGroup, kFromConcurrency };
  TokenRule token_rule = TokenRule::kBlocksTimesBlockSize;
};

// V0: blocks of all layers, CPU blocks from --swap-space, V0 error texts.
VllmKvReport VllmV0Report(const VllmKvSpec& spec, int64_t available, int64_t max_model_len,
                          int64_t swap_bytes);
// V1 (every V1 era; the release picks the log format and token rule).
// `check_spec` is the merged spec the start-up check sums over.
VllmKvReport VllmV1Report(const VllmKvSpec& spec, const VllmKvSpec& check_spec, int64_t available,
                          int64_t max_model_len, int64_t max_num_batched_tokens,
                          const VllmRelease& r);

// The report's text: how the tokens were computed, and the lines the engine
// prints (V0's, and V1's per release; V1 prints none when it refuses to start).
std::string DescribeVllmTokenRule(const VllmKvReport& rep, const VllmKvSpec& spec,
                                  int64_t max_model_len);
std::vector<std::string> DescribeVllmV0ReportLines(const VllmKvReport& rep, int64_t max_model_len,
                                                   VllmEra era);
std::vector<std::string> DescribeVllmV1ReportLines(const VllmKvReport& rep, int64_t max_model_len,
                                                   const VllmRelease& r);

// Python's str(round(x, 2)) (vLLM's format_gib / GiB helpers): "24.0", "3.18".
std::string PyRound2(double x);
// Python's str(float) for a user fraction: "0.9", "0.95".
std::string PyFloat(double x);
// The bare "{:.2f}" GiB number the formulas print between terms ("weights
// 15.26 (estimated) + ..."); where the unit follows, base/format.h FormatGiB.
std::string Gib2(int64_t bytes);

}  // namespace kvplan
