// Speculative decoding (EAGLE, EAGLE-3, MTP/NextN, standalone draft) as SGLang
// and vLLM run it: the draft passes, the verify pass over batch x draft
// tokens, tokens per second and speedup against plain decoding, and the
// memory the draft adds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "perf/model_geometry.h"
#include "perf/step_time.h"

namespace kvplan {

enum class SpecAlgorithm { kNone, kEagle, kEagle3, kNextn, kStandalone };
enum class SpecEngine { kSglang, kVllm };

// "EAGLE", "EAGLE3", "NEXTN" (or "MTP"), "STANDALONE"; "" is none. Throws InputError.
SpecAlgorithm ParseSpecAlgorithm(const std::string& name);
const char* SpecAlgorithmName(SpecAlgorithm a);

struct SpecConfig {
  SpecAlgorithm algorithm = SpecAlgorithm::kNone;
  int num_steps = 0;                    // --speculative-num-steps (vLLM: num_speculative_tokens)
  int eagle_topk = 1;                   // --speculative-eagle-topk
  int num_draft_tokens = 0;             // --speculative-num-draft-tokens
  std::optional<double> accept_length;  // tau incl. the bonus token; unset: default
  // SGLang only: SGLANG_ENABLE_SPEC_V2=1 keeps the overlap scheduler on
  // (server_args.py @v0.5.6: without it "Overlap scheduler is disabled because
  // of using eagle3 or standalone speculative decoding").
  bool sglang_spec_v2 = false;
};

// The speculative settings SGLang `sglang_version` ("" = newest) runs for a
// target of `target_architecture`: the engine's own rule
// (engines/sglang/speculative.h SglangSpeculativeParams: the release's
// automatic values for what the user leaves unset, then top-k 1 sets
// num_draft_tokens = num_steps + 1). Throws InputError when only the draft
// tokens or only one of steps / top-k is set, or the values are impossible.
SpecConfig ResolveSglangSpec(SpecAlgorithm algo, const std::string& target_architecture,
                             std::optional<int> steps, std::optional<int> topk,
                             std::optional<int> draft_tokens,
                             const std::string& sglang_version = "");

// Per-token acceptance of a chain draft, fitted to published chain-drafting
// acceptance lengths (nebius/EAGLE3-Llama-3.3-70B-Instruct card, K=7, T=1:
// yuhuili EAGLE-3 8B tau 2.77 MT-bench; RedHatAI 70B 2.88): (1-a^8)/(1-a)=2.835
// at a = 0.66. MTP heads trained with the model accept more: DeepSeek-V3
// reports 85-90 % for the second token (arXiv 2412.19437 sec. 5.4.3).
inline constexpr double kEagleTokenAcceptance = 0.66;
inline constexpr double kMtpTokenAcceptance = 0.85;

// Expected accepted tokens per iteration (incl. the bonus token) when the
// user gives none: sum_{i=0..depth} a^i over the chain depth; a tree
// (topk > 1) accepts as a chain whose per-token rate is 1 - (1-a)^topk^0.5.
double DefaultAcceptLength(const SpecConfig& spec);
double AcceptLength(const SpecConfig& spec);

// The deepest path the verify pass can accept (draft tokens, the bonus token
// excluded): the tree holds num_draft_tokens nodes, a path is at most
// num_steps deep.
int SpecChainDepth(const SpecConfig& spec);

// The per-token acceptance `a` of a chain `depth` drafts deep whose mean
// accepted length (incl. the bonus token) sum_{i=0..depth} a^i is `tau`:
// the inverse of DefaultAcceptLength's sum, by bisection; 0 at tau 1, 1 at
// tau depth + 1. Throws InputError outside [1, depth + 1].
double ChainTokenAcceptance(double tau, int depth);

struct SpecStep {
  double draft_us = 0;   // all draft forwards of one iteration
  double host_us = 0;    // host time the GPU waits for (per iteration)
  double verify_us = 0;  // the target forward over batch x draft tokens
  double verify_comm_us = 0;
  double iteration_us = 0;
  double accept_length = 0;
  double tpot_ms = 0;       // per request
  double tokens_per_s = 0;  // whole batch
  double baseline_tokens_per_s = 0;
  double speedup = 0;
};

// One speculative iteration at `batch` requests with `ctx` tokens of context.
// `draft` is the draft model's step context (its own geometry; MTP: one
// target layer); `target` the target's.
SpecStep SpeculativeStep(const StepContext& target, const StepContext& draft,
                         const SpecConfig& spec, SpecEngine engine, double batch, double ctx,
                         bool cuda_graph);

// The geometry of the draft an algorithm runs: EAGLE/EAGLE-3/standalone use
// the draft model's own; NextN/MTP is one decoder layer of the target (an MoE
// layer when the target is MoE) sharing its embedding and LM head.
ModelGeometry MtpDraftGeometry(const ModelGeometry& target);

// Memory the draft adds per rank (sglang-memory.md section 6): its weights,
// its KV per token (own buffers, same token count as the target), and its
// draft and draft-extend CUDA graphs.
struct SpecMemory {
  int64_t weight_bytes = 0;
  int64_t kv_bytes_per_token = 0;
  int64_t graph_bytes = 0;
};
SpecMemory SpeculativeMemory(const ModelGeometry& draft, const Parallelism& par,
                             double kv_bytes_per_elem, const SpecConfig& spec,
                             int cuda_graph_max_bs, bool shares_target_embedding);

}  // namespace kvplan
