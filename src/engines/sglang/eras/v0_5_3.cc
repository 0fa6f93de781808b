// SGLang v0.5.3 - v0.5.6.post2 (PR #10975 "Use more general heuristics",
// 2025-09-29; v0.5.3 @a4a3d823, v0.5.6.post2 @5c8bd8b5): capacity buckets
// choose chunked prefill and the decode graph size, and mem_fraction_static
// follows from the memory those need.
#include <fmt/core.h>

#include "engines/sglang/era.h"
#include "engines/sglang/reserve.h"

namespace kvplan {

// python/sglang/srt/server_args.py @v0.5.3 _handle_gpu_memory_settings (buckets in MiB)
SglangBucket SglangBucketV053(int64_t gpu_mem, int tp, int64_t version) {
  if (gpu_mem == 0) return {4096, 160, "capacity unknown"};
  if (gpu_mem < 20 * 1024) return {2048, 8, "<20 GiB"};
  if (gpu_mem < 35 * 1024) {
    // #12124 (2025-10-25, v0.5.5) raised 16 to 24 for tp < 4.
    int64_t small = version >= SglangVersionKey(0, 5, 5) ? 24 : 16;
    return {2048, tp < 4 ? small : 80, "20-35 GiB"};
  }
  if (gpu_mem < 60 * 1024) return {4096, tp < 4 ? 32 : 160, "35-60 GiB"};
  if (gpu_mem < 90 * 1024) return {8192, tp < 4 ? 256 : 512, "60-90 GiB"};
  if (gpu_mem < 160 * 1024) return {8192, tp < 4 ? 256 : 512, "90-160 GiB"};
  return {16384, 512, ">=160 GiB"};
}

SglangDefaults SglangResolveBucketsAndGraphs(const SglangDefaultsInput& in) {
  const SglangArgs& a = *in.args;
  SglangDefaults d;
  const SglangBucket b = SglangBucketV053(in.gpu_mem_mib, a.tp, in.version);
  if (a.chunked_prefill_size) {
    d.chunked_prefill_size = *a.chunked_prefill_size;
  } else {
    d.chunked_prefill_size = b.chunked_prefill_size;
    Rule(in, &d.chunked_prefill_rule, "capacity bucket {} ({} MiB)", b.label, in.gpu_mem_mib);
  }
  if (a.cuda_graph_max_bs) {
    d.cuda_graph_max_bs = *a.cuda_graph_max_bs;
  } else {
    d.cuda_graph_max_bs = b.cuda_graph_max_bs;
    Rule(in, &d.cuda_graph_rule, "capacity bucket {}, tp {}", b.label, a.tp);
  }
  if (a.disable_cuda_graph) {
    d.capture_bs.clear();
  } else {
    d.capture_bs = SglangCaptureListV05(d.cuda_graph_max_bs, in.speculative);
  }
  return d;
}

namespace {

SglangDefaults DefaultsV053(const SglangDefaultsInput& in) {
  SglangDefaults d = SglangResolveBucketsAndGraphs(in);
  if (SglangFractionNeedsNoRule(in, &d)) return d;
  const SglangArgs& a = *in.args;
  SglangReserve r(in.explain);
  r.AddMetadata();
  r.AddActivation(d, a);
  r.Add(d.cuda_graph_max_bs * 2.0, "cuda_graph_max_bs {} * 2", d.cuda_graph_max_bs);
  r.AddParallelism(a);
  r.AddDpAttention(a, d.cuda_graph_max_bs);
  r.FloorLargeCard(in.gpu_mem_mib);
  if (in.speculative) {
    const bool standalone = a.speculative_algorithm == "STANDALONE";
    r.Add((standalone ? 6 : 2) * 1024.0, "{}",
          standalone ? "standalone draft" : "speculative draft");
  }
  d.mem_fraction_static = r.Fraction(in.gpu_mem_mib, &d.mem_fraction_rule);
  return d;
}

}  // namespace

const SglangEra& SglangEraV0_5_3() {
  static const SglangEra era = [] {
    SglangEra e;
    e.id = "v0.5.3";
    e.releases = "v0.5.3 - v0.5.6.post2 (Oct-Dec 2025)";
    e.source =
        "python/sglang/srt/server_args.py @v0.5.3 (a4a3d823; #10975), @v0.5.6.post2 (5c8bd8b5)";
    e.defaults = DefaultsV053;
    e.spec_token_headroom = true;
    e.error_names_mfs = true;
    e.error_names_mfs_server_args = true;
    e.swa_mode = 1;
    return e;
  }();
  return era;
}

}  // namespace kvplan
