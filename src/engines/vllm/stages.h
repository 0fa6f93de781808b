// PlanVllm as a sequence of named stages (engines/vllm/planner.cc runs them in
// order): defaults -> memory terms (weights, activations, non-torch, graphs)
// -> the era's budget (engines/vllm/budget.h) -> KV spec -> the era's KV report
// (blocks, tokens, requests) -> verdict. Each stage computes numbers and the
// rule or source strings it used; the settings, stage formulas, figures and
// warnings of PlanResult are written from that data by the Describe functions
// (engines/vllm/describe.cc), not by branches inside the arithmetic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "catalog/weights.h"
#include "engines/common/plan.h"
#include "engines/vllm/budget.h"
#include "engines/vllm/hybrid.h"
#include "engines/vllm/kv_spec.h"
#include "engines/vllm/release.h"
#include "engines/vllm/vllm.h"

namespace kvplan {

// Stage "defaults": the launch's effective settings, each with the rule that
// chose it when the user did not.
struct VllmDefaults {
  VllmRelease release;
  VllmEra era;
  double util = 0.9;
  int64_t max_model_len = 0;
  int64_t block_size = 16;
  int64_t mnbt = 0;  // max_num_batched_tokens
  int64_t max_num_seqs = 0;
  bool chunked = true;
  int gpus_per_replica = 1;
  // --max-model-len above max_position_embeddings (vLLM refuses it without overrides).
  bool max_len_above_model = false;
  std::string block_rule, mnbt_rule, seqs_rule;
  // Hybrid attention/mamba models: the state page and the enlarged block (engines/vllm/hybrid.h).
  VllmHybridBlock hybrid;
};
// Throws InputError for launches vLLM refuses before sizing anything.
VllmDefaults VllmResolveDefaults(const std::string& version, const ModelSpec& model,
                                 const GpuSpec& gpu, const VllmArgs& a);

// Stage "start-up checks" (engines/vllm/startup_checks.cc): a launch vLLM
// refuses before it sizes the KV cache, with the engine's own message.
struct VllmRefusal {
  enum class Kind {
    kNone,
    kUnsupportedModel,
    kMaxModelLen,
    kSharding,
    kWeightsTooLarge,
    kNotModelled
  };
  Kind kind = Kind::kNone;
  std::string message;
  bool Refused() const { return kind != Kind::kNone; }
};
// While the config is built: an architecture the release does not serve, --max-model-len above the
// model (unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1), then the sharding checks (catalog/sharding.h).
VllmRefusal VllmConfigRefusal(const VllmDefaults& d, const ModelSpec& model, const VllmArgs& a);
// The start of the load failure's message (the fixes tell it by this).
inline constexpr const char* kVllmLoadOomPrefix =
    "torch.OutOfMemoryError: CUDA out of memory while loading";
// While loading: estimated weights larger than the memory free before loading.
VllmRefusal VllmLoadRefusal(const VllmTerms& t, const VllmBudget& b, const VllmMeasured& ms);
// vLLM's texts for --max-model-len above the derived length: the error, and the
// warning it logs instead under VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
std::string VllmMaxModelLenError(const VllmRelease& r, int64_t asked, int64_t derived);
std::string VllmMaxModelLenWarning(const VllmRelease& r, int64_t asked, int64_t derived);
// The launch's parallel layout as the sharding checks see it.
Parallelism VllmParallelism(const VllmArgs& a);

// --quantization fp8 on an unquantized checkpoint quantizes at load time.
ModelSpec VllmWithQuantization(ModelSpec m, const VllmArgs& a);
// MTP layers the speculative method adds to the target model (0 otherwise).
int VllmExtraMtpLayers(const ModelSpec& m, const VllmArgs& a);

// Stage "weights" (and activations, non-torch, CUDA graphs): one rank's terms.
VllmTerms VllmMemoryTerms(const ModelSpec& model, const GpuSpec& gpu, const VllmArgs& a,
                          const VllmDefaults& d, const VllmMeasured& ms, const ModelSpec* draft);

// Stage "budget": the era's rule (engines/vllm/eras/*.cc).
VllmBudget VllmEraBudget(const VllmTerms& t, const VllmDefaults& d);

// Its text: the budget's stages, warnings and log lines.
VllmBudgetText DescribeVllmBudget(const VllmTerms& t, const VllmBudget& b, const VllmDefaults& d);

// Stage "KV spec": this rank's layout and the merged one the start-up check sums over.
struct VllmKvStage {
  VllmKvSpec spec;
  VllmKvSpec check;  // every worker's layers (PP), V1 only
};
VllmKvStage VllmBuildKvStage(const ModelSpec& model, const VllmArgs& a, const VllmDefaults& d,
                             const ModelSpec* draft);

// Stage "tokens/blocks/requests": the era's KV report (blocks, tokens, concurrency).
VllmKvReport VllmEraKvReport(const VllmKvStage& kv, const VllmBudget& b, const VllmArgs& a,
                             const VllmDefaults& d);

// KV bytes the report's blocks allocate.
int64_t VllmKvBytesAllocated(const VllmKvSpec& s, int64_t blocks, bool v0);

// The text of the plan, from the stages' data.
std::vector<Setting> DescribeVllmSettings(const VllmDefaults& d, const VllmArgs& a);
std::vector<std::string> DescribeVllmDefaultWarnings(const VllmDefaults& d, const ModelSpec& model,
                                                     const VllmArgs& a, const ModelSpec* draft);
std::vector<std::string> DescribeVllmTermWarnings(const VllmTerms& t, const VllmDefaults& d);
std::vector<Stage> DescribeVllmKvStages(const VllmDefaults& d, const VllmBudget& b,
                                        const VllmKvSpec& spec, const VllmKvReport& rep);
std::vector<MemorySlice> DescribeVllmMemory(const VllmTerms& t, int64_t kv_alloc);
std::vector<Figure> DescribeVllmFigures(const VllmDefaults& d, const VllmTerms& t,
                                        const VllmBudget& b, const VllmBudgetText& bt,
                                        const VllmKvSpec& spec, const VllmKvReport& rep);
// The warnings after the KV report: the budget's, padding layers, unmodelled
// layers and flags, in that order.
std::vector<std::string> DescribeVllmKvWarnings(const VllmHybridBlock& hybrid,
                                                const VllmBudgetText& bt, const VllmKvSpec& spec,
                                                const VllmArgs& a);

}  // namespace kvplan
