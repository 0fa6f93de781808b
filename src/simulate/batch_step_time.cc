#include "simulate/batch_step_time.h"

#include <algorithm>
#include <utility>

#include "perf/cuda_graph.h"

namespace kvplan {
namespace {

// The memo is cleared past this many shapes, so memory stays bounded.
constexpr size_t kMaxCached = 1 << 20;

// Bucket 0 is an empty cache (a fresh prompt); bucket b > 0 holds mean
// contexts (b - 1) * kCtxBucket + 1 to b * kCtxBucket.
int64_t Bucket(int64_t ctx_sum, int64_t n) {
  const int64_t mean = n > 0 ? ctx_sum / n : 0;
  return mean > 0 ? 1 + (mean - 1) / BatchStepTimer::kCtxBucket : 0;
}

// The centre of a context bucket, in tokens.
double BucketCtx(int64_t bucket) {
  if (bucket == 0) return 0;
  return static_cast<double>((bucket - 1) * BatchStepTimer::kCtxBucket) +
         BatchStepTimer::kCtxBucket / 2.0;
}

}  // namespace

size_t BatchStepTimer::KeyHash::operator()(const Key& k) const {
  size_t h = static_cast<size_t>(k.decode);
  for (int64_t v : {k.decode_ctx, k.prefill, k.prefill_tokens, k.prefill_ctx}) {
    h = h * 0x9e3779b97f4a7c15ULL + static_cast<size_t>(v);
  }
  return h;
}

BatchStepTimer::BatchStepTimer(const PerfRequest& req)
    : geometry_(MakeGeometry(req.model)),
      par_(req.par),
      pp_(std::max(1, req.par.pp)),
      dp_attention_ranks_(req.par.dp_attention ? std::max(1, req.par.dp) : 1) {
  ctx_ = MakeStepContext(geometry_, req);
  PerfRequest probe = req;
  probe.batch_sizes = {1};
  probe.prompt_lengths = {1};
  probe.spec = SpecConfig{};
  largest_graphed_ = RunPerf(probe).largest_graphed_batch;
  if (req.spec.algorithm == SpecAlgorithm::kNone) return;
  // perf's own run of the speculative launch decides its graphs and its accept length.
  probe.spec = req.spec;
  const PerfReport spec = RunPerf(probe);
  spec_largest_graphed_ = spec.largest_graphed_batch;
  accept_length_ = spec.accept_length;
  spec_notes_ = spec.notes;
  spec_ = req.spec;
  spec_.accept_length = accept_length_;
  spec_engine_ = req.spec_engine;
  draft_geometry_ = SpecDraftGeometry(req, geometry_);
  draft_ctx_ = MakeStepContext(draft_geometry_, req);
}

double BatchStepTimer::SpecDecodeUs(int64_t batch, int64_t ctx_bucket) {
  // The memo's keys for speculative iterations: prefill -1, never a real shape.
  const Key k{batch, ctx_bucket, -1, 0, 0};
  const auto it = cache_.find(k);
  if (it != cache_.end()) return it->second;
  if (cache_.size() >= kMaxCached) cache_.clear();
  const double nb = static_cast<double>(batch);
  const double us =
      SpeculativeStep(ctx_, draft_ctx_, spec_, spec_engine_, nb, BucketCtx(ctx_bucket),
                      DecodeReplaysGraph(batch, spec_largest_graphed_, par_))
          .iteration_us *
      pp_;
  cache_.emplace(k, us);
  return us;
}

BatchShape BatchStepTimer::AcrossRanks(const BatchShape& b) const {
  const int64_t n = dp_attention_ranks_;
  return {b.decode * n, b.decode_ctx * n, b.prefill * n, b.prefill_tokens * n, b.prefill_ctx * n};
}

double BatchStepTimer::SpecStepUs(const BatchShape& rank) {
  const BatchShape b = AcrossRanks(rank);
  const int64_t bucket = Bucket(b.decode_ctx, b.decode);
  const double spec = SpecDecodeUs(b.decode, bucket);
  if (b.prefill == 0) return spec;
  BatchShape plain_decode;
  plain_decode.decode = b.decode;
  plain_decode.decode_ctx = b.decode_ctx;
  return GroupStepUs(b) + (b.decode > 0 ? spec - GroupStepUs(plain_decode) : 0);
}

void BatchStepTimer::UseCaptureSizes(std::vector<int> sizes) {
  capture_sizes_ = std::move(sizes);
  largest_graphed_ = capture_sizes_.empty() ? 0 : capture_sizes_.back();
  cache_.clear();
}

// A decode batch replayed from the graph of the next capture size: the padded
// rows attend to no context, so the mean context shrinks and the KV read stays.
ForwardShape BatchStepTimer::DecodeShape(const Key& k) const {
  const double nd = static_cast<double>(k.decode);
  const ForwardShape real{nd, 1, BucketCtx(k.decode_ctx), nd,
                          DecodeReplaysGraph(k.decode, largest_graphed_, par_)};
  // Capture sizes are vLLM's (no DP attention ranks there): the group's batch is the rank's.
  if (capture_sizes_.empty() || k.decode > largest_graphed_) return real;
  // vllm/v1/worker/gpu_model_runner.py (v0.11+): num_input_tokens padded to the next
  // cudagraph_capture_sizes entry (pad_for_cudagraph)
  const double padded = *std::lower_bound(capture_sizes_.begin(), capture_sizes_.end(), k.decode);
  return {padded, 1, real.ctx * nd / padded, padded, true};
}

double BatchStepTimer::Compute(const Key& k) const {
  const double np = static_cast<double>(k.prefill);
  const double pt = static_cast<double>(k.prefill_tokens);
  const double nd = static_cast<double>(k.decode);
  const ForwardShape decode = DecodeShape(k);
  if (k.prefill == 0) return ForwardTime(ctx_, decode).total_us * pp_;
  const ForwardShape prefill{np, pt / np, BucketCtx(k.prefill_ctx), np, false};
  if (k.decode == 0 && k.prefill == 1) return ForwardTime(ctx_, prefill).total_us * pp_;
  // Linear layers, collectives and launches once over every token of the step.
  const ForwardShape all{1, nd + pt, 0, nd + np, false};
  const StepBreakdown whole = ForwardTime(ctx_, all);
  double us = whole.total_us - whole.attention_us + ForwardTime(ctx_, prefill).attention_us;
  if (k.decode > 0) {
    const ForwardShape eager_decode{nd, 1, BucketCtx(k.decode_ctx), nd, false};
    us += ForwardTime(ctx_, eager_decode).attention_us;
  }
  return us * pp_;
}

double BatchStepTimer::StepUs(const BatchShape& rank) { return GroupStepUs(AcrossRanks(rank)); }

double BatchStepTimer::GroupStepUs(const BatchShape& b) {
  const Key k{b.decode, Bucket(b.decode_ctx, b.decode), b.prefill, b.prefill_tokens,
              Bucket(b.prefill_ctx, b.prefill)};
  const auto it = cache_.find(k);
  if (it != cache_.end()) return it->second;
  if (cache_.size() >= kMaxCached) cache_.clear();
  const double us = Compute(k);
  cache_.emplace(k, us);
  return us;
}

}  // namespace kvplan
