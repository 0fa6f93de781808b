#include "perf/step_time.h"

#include <gtest/gtest.h>

#include "testing/perf_test_util.h"

namespace kvplan {
namespace {

using perf_test::Context;
using perf_test::Decode;

// First principles: decode at batch 1 on one GPU streams every weight once:
// time = weight bytes / (HBM bandwidth x memory efficiency) + KV + kernels.
TEST(StepTime, BatchOneDecodeIsWeightStreaming) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("llama-3.1-8b"));
  const StepContext c = Context(&g, "h100-sxm", Topology::kNvswitch, 1);
  const StepBreakdown b = ForwardTime(c, Decode(1, 0));
  const double weights =
      (g.ActiveParamsPerToken() + g.embed_params) * 2;  // bf16, no embedding read
  EXPECT_NEAR(b.weight_bytes, weights, weights * 1e-9);
  EXPECT_NEAR(b.gemm_us, weights / (3.35e12 * 0.8) * 1e6, 1.0);
  EXPECT_EQ(b.comm_us, 0);
  EXPECT_EQ(b.collectives, 0);
}

// Published, full setup: SGLang docs (advanced_features/speculative_decoding.md):
// Llama-3.1-8B-Instruct, 1x H100, MT-bench, batch 1, no speculation: 158.34 tok/s.
TEST(StepTime, Llama8BOnOneH100MatchesSglangDocs) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("llama-3.1-8b"));
  const StepContext c = Context(&g, "h100-sxm", Topology::kNvswitch, 1);
  const double tok_s = 1e6 / ForwardTime(c, Decode(1, 512)).total_us;
  EXPECT_NEAR(tok_s, 158.34, 158.34 * 0.25);
}

// Published, one GPU: vllm#23280's block-FP8 GEMMs (DeepSeek-V3 N=2112 K=7168, M 4096-8192 on
// an H100) reach 403-490 TFLOP/s, against 1979 TFLOP/s FP8 peak. A prefill of DeepSeek-V3's
// block-scaled checkpoint, compute-bound, runs its linear layers at that rate; a decode step
// at batch 1 streams the same bytes either way.
TEST(StepTime, BlockScaledFp8GemmsRunAtTheMeasuredBlockRate) {
  ModelGeometry block = MakeGeometry(ReferenceModel("deepseek-v3"));
  ASSERT_TRUE(block.fp8_block_scaled);
  ModelGeometry per_tensor = block;
  per_tensor.fp8_block_scaled = false;
  const StepContext cb = Context(&block, "h100-sxm", Topology::kNvswitch, 8);
  const StepContext ct = Context(&per_tensor, "h100-sxm", Topology::kNvswitch, 8);
  const ForwardShape prefill{1, 16384, 0, 1, false};
  const StepBreakdown b = ForwardTime(cb, prefill);
  const StepBreakdown t = ForwardTime(ct, prefill);
  // The attention projections, shared experts and routed experts: 2 x active params x tokens.
  const double tflops_per_gpu = 2 * block.ActiveParamsPerToken() * 16384 / 8 / 1e12;
  const double achieved = tflops_per_gpu / (b.gemm_us / 1e6);
  EXPECT_GT(b.gemm_us, 2.5 * t.gemm_us);
  EXPECT_GT(achieved, 300);
  EXPECT_LT(achieved, 500);
  EXPECT_DOUBLE_EQ(ForwardTime(cb, Decode(1, 1024)).gemm_us,
                   ForwardTime(ct, Decode(1, 1024)).gemm_us);
}

// First principles: the small memory-bound kernels each take at least
// aiconfigurator's 3 us constant latency whatever the batch, so the part of a step that is not
// GEMMs, attention or collectives is the same at batch 1 and 64; an FP8 MoE
// layer (routing, permute, an activation quantization before each FP8 linear)
// carries more of them than a BF16 dense layer.
TEST(StepTime, SmallKernelLatencyIsPerKernelNotPerToken) {
  const ModelGeometry dsv3 = MakeGeometry(ReferenceModel("deepseek-v3"));
  const StepContext c = Context(&dsv3, "h200", Topology::kNvswitch, 8);
  const StepBreakdown one = ForwardTime(c, Decode(1, 1024));
  const StepBreakdown many = ForwardTime(c, Decode(64, 1024));
  EXPECT_DOUBLE_EQ(one.overhead_us, many.overhead_us);
  const ModelGeometry llama = MakeGeometry(ReferenceModel("llama-3.1-8b"));
  const StepBreakdown dense =
      ForwardTime(Context(&llama, "h100-sxm", Topology::kNvswitch, 1), Decode(1, 512));
  // Llama: 32 layers x (10 kernels x 1 us gap + 5 memory ops x the 2 us more that
  // make their 3 us) + 4 kernels.
  EXPECT_NEAR(dense.overhead_us, 32 * (10 * 1.0 + 5 * 2.0) + 4, 1e-9);
  EXPECT_GT(one.overhead_us / dsv3.layers, 2 * dense.overhead_us / llama.layers);
}

TEST(StepTime, MonotoneInBatchAndContext) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("deepseek-v3"));
  const StepContext c = Context(&g, "h200", Topology::kNvswitch, 8);
  double prev = 0;
  for (double bs : {1, 2, 8, 32, 128, 512}) {
    const double t = ForwardTime(c, Decode(bs, 2048)).total_us;
    EXPECT_GT(t, prev);
    prev = t;
  }
  prev = 0;
  for (double ctx : {0, 1024, 8192, 65536}) {
    const double t = ForwardTime(c, Decode(16, ctx)).total_us;
    EXPECT_GT(t, prev);
    prev = t;
  }
}

// Tensor parallelism splits the weights: per-rank bytes fall by ~tp.
TEST(StepTime, TensorParallelSplitsWeights) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("llama-3.1-70b"));
  const double one =
      ForwardTime(Context(&g, "h100-sxm", Topology::kNvswitch, 1), Decode(1, 0)).weight_bytes;
  const double eight =
      ForwardTime(Context(&g, "h100-sxm", Topology::kNvswitch, 8), Decode(1, 0)).weight_bytes;
  EXPECT_NEAR(one / eight, 8.0, 1e-6);
}

// Dense TP: two allreduces per layer plus the embedding's, and one logits gather.
TEST(StepTime, CollectivesPerForwardDenseTp) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("llama-3.1-70b"));
  const StepBreakdown b =
      ForwardTime(Context(&g, "h100-sxm", Topology::kNvswitch, 8), Decode(1, 1024));
  EXPECT_EQ(b.collectives, 2 * 80 + 1 + 1);
}

TEST(StepTime, MoeVerifyReadsMoreExperts) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("deepseek-v3"));
  const StepContext c = Context(&g, "h200", Topology::kNvswitch, 8);
  const StepBreakdown one = ForwardTime(c, Decode(1, 1024));
  const StepBreakdown four = ForwardTime(c, {1, 4, 1024, 4, true});
  // 8 -> 30.5 routed experts per MoE layer (+1 shared) over 58 MoE layers.
  const double expert_bytes = g.expert_params * (1.0 + 4.0 / (128 * 128)) / 8;  // FP8 + scales
  const double extra = 58 * (ExpectedExpertsTouched(256, 8, 4) - 8) * expert_bytes;
  EXPECT_NEAR(four.weight_bytes - one.weight_bytes, extra, extra * 1e-6);
}

// Eager steps cost the host's launch time when the GPU finishes first (TP 8
// splits the work eight ways; the host still launches every kernel).
TEST(StepTime, EagerLaunchCostsMoreThanGraphsWhenTheGpuIsFast) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("llama-3.1-70b"));
  const StepContext c = Context(&g, "h100-sxm", Topology::kNvswitch, 8);
  EXPECT_GT(ForwardTime(c, Decode(1, 128, false)).total_us,
            ForwardTime(c, Decode(1, 128, true)).total_us);
}

TEST(StepTime, DpAttentionUsesGatherAndScatterNotAllreduce) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("deepseek-v3"));
  StepContext c = Context(&g, "h200", Topology::kNvswitch, 8);
  c.par.dp = 8;
  c.par.dp_attention = true;
  const StepBreakdown b = ForwardTime(c, Decode(64, 1024));
  // Attention TP 1: no attention allreduce; MLP: allgather + reduce-scatter
  // per layer; logits gather.
  EXPECT_EQ(b.collectives, 2 * 61 + 1);
  c.par.ep = 8;
  const StepBreakdown ep = ForwardTime(c, Decode(64, 1024));
  // EP: dispatch + combine all-to-all on 58 MoE layers, gather/scatter on 3 dense ones.
  EXPECT_EQ(ep.collectives, 2 * 58 + 2 * 3 + 1);
}

}  // namespace
}  // namespace kvplan
