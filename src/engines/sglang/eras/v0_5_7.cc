// SGLang in 2026 (version from setuptools-scm after #15985): 0.5.7 - 0.5.14
// (Dec 2025 - Jun 2026) and 0.5.15 - main (Jul 2026 onward, main @30cb848d
// 2026-08-11).
#include <fmt/core.h>

#include "engines/sglang/era.h"
#include "engines/sglang/reserve.h"

namespace kvplan {
namespace {

// #16331 (2026-03-02) turned piecewise prefill graphs on by default; v0.5.9
// (early March 2026) is taken as the first release with it [inferred].
constexpr int64_t kPiecewiseDefaultFrom = SglangVersionKey(0, 5, 9);

void ResolvePiecewise(const SglangDefaultsInput& in, SglangDefaults* d) {
  const SglangArgs& a = *in.args;
  if (a.piecewise_cuda_graph) {
    d->piecewise_cuda_graph = *a.piecewise_cuda_graph;
  } else {
    d->piecewise_cuda_graph = in.version >= kPiecewiseDefaultFrom && !a.disable_cuda_graph;
    d->piecewise_rule = d->piecewise_cuda_graph ? "on by default since #16331 (2026-03-02)"
                                                : "off by default before #16331 (2026-03-02)";
  }
}

// Prefill-graph capture sizes: up to chunked_prefill_size for MHA, 2048 for MLA.
int64_t PrefillGraphCount(const SglangDefaultsInput& in, const SglangDefaults& d) {
  const int64_t max_tokens = in.is_mla ? 2048 : d.chunked_prefill_size;
  return static_cast<int64_t>(SglangPiecewiseTokens(max_tokens).size());
}

// python/sglang/srt/server_args.py (2026-01..06) _handle_gpu_memory_settings
SglangDefaults DefaultsEarly(const SglangDefaultsInput& in) {
  SglangDefaults d = SglangResolveBucketsAndGraphs(in);
  ResolvePiecewise(in, &d);
  if (SglangFractionNeedsNoRule(in, &d)) return d;
  const SglangArgs& a = *in.args;
  SglangReserve r(in.explain);
  r.AddMetadata();
  r.AddActivation(d, a);
  r.Add(d.cuda_graph_max_bs * 2.0, "cuda_graph_max_bs {} * 2", d.cuda_graph_max_bs);
  r.AddParallelism(a);
  r.AddDpAttention(a, d.cuda_graph_max_bs);
  if (d.piecewise_cuda_graph) {
    // #15927 (2026-01-10): 8 MiB per piecewise graph; MLA caps the sizes at 2048
    const int64_t n = PrefillGraphCount(in, d);
    r.Add(n * 8.0, "{} piecewise prefill graphs * 8", n);
  }
  r.FloorLargeCard(in.gpu_mem_mib);
  if (in.speculative) {
    // e55e6553 (2026-02-26) raised the speculative reserve from 2 to 4 GiB.
    const bool standalone = a.speculative_algorithm == "STANDALONE";
    const double spec = standalone ? 6 : in.version >= kPiecewiseDefaultFrom ? 4 : 2;
    r.Add(spec * 1024, "{}", standalone ? "standalone draft" : "speculative draft");
  }
  d.mem_fraction_static = r.Fraction(in.gpu_mem_mib, &d.mem_fraction_rule);
  return d;
}

// python/sglang/srt/server_args.py @main 2026-08-11 (30cb848d): reserve_for_graph_mb;
// no speculative term (#23862 budgets the draft in the KV cell instead).
SglangDefaults DefaultsMid(const SglangDefaultsInput& in) {
  SglangDefaults d = SglangResolveBucketsAndGraphs(in);
  ResolvePiecewise(in, &d);
  if (SglangFractionNeedsNoRule(in, &d)) return d;
  const SglangArgs& a = *in.args;
  SglangReserve r(in.explain);
  r.AddMetadata();
  r.AddActivation(d, a);
  r.AddParallelism(a);
  if (!a.disable_cuda_graph) {
    r.Add(d.cuda_graph_max_bs * 2.0, "decode graphs bs {} * 2", d.cuda_graph_max_bs);
  }
  r.AddDpAttention(a, d.cuda_graph_max_bs);
  if (d.piecewise_cuda_graph) {
    if (in.is_mla) {
      r.Add(1536, "prefill graphs (MLA)");
    } else {
      const int64_t n = PrefillGraphCount(in, d);
      r.Add(n * 8.0, "{} prefill graphs * 8", n);
    }
  }
  r.FloorLargeCard(in.gpu_mem_mib);
  d.mem_fraction_static = r.Fraction(in.gpu_mem_mib, &d.mem_fraction_rule);
  return d;
}

}  // namespace

const SglangEra& SglangEra2026Early() {
  static const SglangEra era = [] {
    SglangEra e;
    e.id = "v0.5.7";
    e.releases = "v0.5.7 - v0.5.14 (Dec 2025 - Jun 2026)";
    e.source =
        "python/sglang/srt/server_args.py, model_executor/model_runner_kv_cache_mixin.py "
        "(#15748, #15821, #15927, #16331, #18039)";
    e.defaults = DefaultsEarly;
    e.spec_token_headroom = false;  // #15748 (2025-12-24)
    e.error_names_mfs = true;
    e.error_names_mfs_server_args = true;
    e.req_to_token_extra_rows = 1;
    e.swa_mode = 2;
    e.scheduler_min_pool = false;
    return e;
  }();
  return era;
}

const SglangEra& SglangEra2026Mid() {
  static const SglangEra era = [] {
    SglangEra e = SglangEra2026Early();
    e.id = "v0.5.15";
    e.releases = "v0.5.15 - main (Jul 2026 onward)";
    e.source =
        "python/sglang/srt/{server_args.py,mem_cache/kv_cache_configurator.py,"
        "model_executor/pool_configurator.py} @main 2026-08-11 (30cb848d; #23862, #28855)";
    e.defaults = DefaultsMid;
    e.draft_kv_in_cell = true;
    e.draft_weights_before_profile = true;
    e.rest_memory_error = true;
    // MemoryPoolConfig.__post_init__ (#22384) raises before mem_fraction_static
    // is attached to the config, so the message has no "Current value".
    e.error_names_mfs = false;
    e.error_names_mfs_server_args = false;
    return e;
  }();
  return era;
}

}  // namespace kvplan
