// PlanTrtllm as a sequence of named stages (engines/trtllm/planner.cc runs them
// in order): defaults -> memory terms -> KV cell -> budget -> blocks -> verdict.
// Each stage computes numbers and the rule or source strings it used; the text
// of PlanResult (settings, stages, figures, warnings) is written from them by
// the Describe functions (engines/trtllm/describe.cc), never by the arithmetic.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/common/plan.h"
#include "engines/trtllm/trtllm.h"

namespace kvplan {

inline constexpr const char* kTrtllmNewest = "1.2.0";

struct TrtllmRelease {
  int major = 0, minor = 0, patch = 0;
  std::string text;
  bool newer_than_modelled = false;  // after kTrtllmNewest's minor: its rules, said so
  bool AtLeast(int a, int b) const { return major > a || (major == a && minor >= b); }
};

// Throws InputError for a release before 0.9; one after kTrtllmNewest's minor is marked.
TrtllmRelease ParseTrtllmRelease(const std::string& version);

// Stage "defaults": the launch's effective settings and the engine's checks on them.
struct TrtllmDefaults {
  TrtllmRelease release;
  std::string backend;  // "pytorch" or "tensorrt"
  bool py = true;       // PyTorch backend (KvCacheCreator) rather than the C++ manager
  double fraction = 0.9;
  int64_t max_seq_len = 0, max_num_tokens = 0, max_batch_size = 0, tokens_per_block = 0;
  int attn_tp = 1;  // tp the KV estimate divides heads by (1 under attention DP)
};
TrtllmDefaults TrtllmResolveDefaults(const std::string& version, const ModelSpec& model,
                                     const TrtllmArgs& a);

// Stage "weights" (and the other measured-or-estimated terms of one rank).
struct TrtllmTerms {
  int64_t total = 0, weights = 0, activation = 0, non_torch = 0;
  std::optional<int64_t> post_load_free;
  std::string total_src, weights_src, act_src, nt_src;  // "measured", "estimated", "catalog"
};
TrtllmTerms TrtllmMemoryTerms(const ModelSpec& model, const GpuSpec& gpu, const TrtllmArgs& a,
                              const TrtllmDefaults& d, const TrtllmMeasured& ms);

// Stage "cell": KV bytes per token on one rank, with its factors.
struct TrtllmCell {
  int64_t per_token = 0;
  int64_t elem_bytes = 0;  // bytes per element of the cache dtype
  int layers = 0;          // attention layers on this PP rank
  int64_t dim = 0;         // kv_lora_rank + rope dim (MLA) or head_dim x kv_heads // tp
  int kv_factor = 2;       // 1 for MLA's latent cache
  bool mla = false;
};
TrtllmCell TrtllmCellSize(const ModelSpec& model, const TrtllmArgs& a, const TrtllmDefaults& d);

// Stage "budget": free memory after loading, and the fraction of it for the KV cache.
struct TrtllmBudget {
  int64_t free_after = 0;
  int64_t available = 0;
};
TrtllmBudget TrtllmKvBudget(const TrtllmTerms& t, const TrtllmDefaults& d);

// Stage "blocks": tokens the budget holds, in whole blocks.
struct TrtllmBlocks {
  int64_t max_tokens = 0;  // available // per_token, capped by kv_cache_config.max_tokens
  int64_t blocks = 0;
  int64_t tokens = 0;  // blocks x tokens_per_block
};
TrtllmBlocks TrtllmTokenBlocks(const TrtllmBudget& b, const TrtllmCell& c, const TrtllmArgs& a,
                               const TrtllmDefaults& d);

// Stage "verdict": whether one block fits, and whether the cache is shorter
// than max_seq_len (TensorRT-LLM then caps the attention window).
// The start of the load failure's message (the fixes tell it by this).
inline constexpr const char* kTrtllmLoadOomPrefix =
    "torch.OutOfMemoryError: CUDA out of memory while loading";

struct TrtllmVerdict {
  bool ok = false;
  bool window_capped = false;
  // Estimated weights larger than the memory free before loading (the CUDA
  // context and communicators aside): torch runs out of memory while loading.
  bool weights_too_large = false;
  int64_t free_before_load = 0;
};
TrtllmVerdict TrtllmCheckVerdict(const TrtllmTerms& t, const TrtllmBudget& b, const TrtllmBlocks& k,
                                 const TrtllmDefaults& d);

// The text of the plan, from the stages' data.
std::vector<Setting> DescribeTrtllmSettings(const TrtllmDefaults& d, const TrtllmArgs& a);
std::vector<Stage> DescribeTrtllmStages(const TrtllmDefaults& d, const TrtllmTerms& t,
                                        const TrtllmCell& c, const TrtllmBudget& b,
                                        const TrtllmBlocks& k, const TrtllmArgs& a);
std::vector<Figure> DescribeTrtllmFigures(const TrtllmDefaults& d, const TrtllmTerms& t,
                                          const TrtllmBudget& b, const TrtllmBlocks& k,
                                          const TrtllmArgs& a);
std::vector<MemorySlice> DescribeTrtllmMemory(const TrtllmTerms& t, const TrtllmCell& c,
                                              const TrtllmBlocks& k);
// ok, the error message and the warnings, in the engine's order.
void DescribeTrtllmVerdict(const ModelSpec& model, const TrtllmDefaults& d, const TrtllmBudget& b,
                           const TrtllmBlocks& k, const TrtllmVerdict& v, const TrtllmArgs& a,
                           PlanResult* out);

}  // namespace kvplan
