// The time of one scheduler step at its batch's composition: decode requests
// (one token each over their context) and prefill chunks (many tokens over
// what is already cached), from the performance model's forward pass
// (perf/step_time.h ForwardTime). A batch of one kind is one ForwardTime; a
// mixed batch runs its linear layers, collectives and launches once over all
// its tokens (ForwardTime at the total token count) with each part's own
// attention core (ForwardTime's attention share of that part's shape). Times
// are memoised with contexts rounded to kCtxBucket tokens. Under DP attention
// (req.par) a shape is one DP rank's batch: it is timed as every rank running
// that batch, ForwardTime's DP attention layout at dp times its requests; it
// replays a CUDA graph when the rank's batch is captured.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "perf/perf_report.h"

namespace kvplan {

struct BatchShape {
  int64_t decode = 0;          // requests decoding one token
  int64_t decode_ctx = 0;      // their context tokens, summed
  int64_t prefill = 0;         // requests prefilling a chunk
  int64_t prefill_tokens = 0;  // the chunks' tokens, summed
  int64_t prefill_ctx = 0;     // tokens already cached before each chunk, summed
};

class BatchStepTimer {
 public:
  static constexpr int64_t kCtxBucket = 16;
  // The largest decode batch replayed from a CUDA graph is perf's
  // (RunPerf's largest_graphed_batch for `req`); prefill and mixed steps run eagerly.
  explicit BatchStepTimer(const PerfRequest& req);
  BatchStepTimer(const BatchStepTimer&) = delete;
  BatchStepTimer& operator=(const BatchStepTimer&) = delete;

  double StepUs(const BatchShape& b);
  int largest_graphed_batch() const { return largest_graphed_; }
  // vLLM: the launch's own capture sizes (perf/cuda_graph.h VllmLaunchCaptureSizes) instead of
  // perf's rule. A decode batch is padded to the next size (its linear layers run the padded
  // rows, its attention the real ones); one above the largest runs eagerly; none: all eager.
  void UseCaptureSizes(std::vector<int> sizes);

  // A launch with speculative decoding (req.spec set): one iteration of
  // `b.decode` requests (perf's SpeculativeStep: the draft passes, the verify
  // pass, the host time), CUDA graphs up to the largest batch perf's rule
  // captures for a speculative launch. A mixed step (vLLM) adds to the plain
  // mixed step what speculating its decode part adds.
  bool speculative() const { return spec_.algorithm != SpecAlgorithm::kNone; }
  double SpecStepUs(const BatchShape& b);
  // The mean accepted length perf uses for the launch (its rule for what the
  // user leaves unset), and perf's notes on it.
  double accept_length() const { return accept_length_; }
  int spec_largest_graphed_batch() const { return spec_largest_graphed_; }
  const std::vector<std::string>& spec_notes() const { return spec_notes_; }

 private:
  struct Key {
    int64_t decode, decode_ctx, prefill, prefill_tokens, prefill_ctx;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  double Compute(const Key& k) const;
  // The TP group's batch when every DP attention rank runs `b` (b itself without DP attention).
  BatchShape AcrossRanks(const BatchShape& b) const;
  double GroupStepUs(const BatchShape& b);
  ForwardShape DecodeShape(const Key& k) const;

  double SpecDecodeUs(int64_t batch, int64_t ctx_bucket);

  ModelGeometry geometry_;
  StepContext ctx_;
  Parallelism par_;  // whether a decode replays a graph is perf's DecodeReplaysGraph for it
  int pp_ = 1;
  int dp_attention_ranks_ = 1;
  int largest_graphed_ = 0;
  std::vector<int> capture_sizes_;  // ascending; empty: perf's rule (no padding)
  // Speculation (algorithm kNone: none): the draft, its step context, the
  // settings with perf's accept length.
  ModelGeometry draft_geometry_;
  StepContext draft_ctx_;
  SpecConfig spec_;
  SpecEngine spec_engine_ = SpecEngine::kSglang;
  int spec_largest_graphed_ = 0;
  double accept_length_ = 1;
  std::vector<std::string> spec_notes_;
  std::unordered_map<Key, double, KeyHash> cache_;
};

}  // namespace kvplan
