// SGLang v0.4.7.post1 - v0.5.2 (PR #7054 "Simplify the heuristics",
// 2025-06-10; v0.4.9 @ec5f9c62, v0.5.2 @b0d25e72): reserved memory by
// capacity bucket.
#include <fmt/core.h>

#include "engines/sglang/era.h"

namespace kvplan {
namespace {

// server_args.py @v0.4.9 __post_init__: mem_fraction_static from the reserved
// memory of the capacity bucket (MiB).
void FractionV047Post1(const SglangDefaultsInput& in, SglangDefaults* d) {
  const SglangArgs& a = *in.args;
  const int64_t gpu_mem = in.gpu_mem_mib;
  if (a.mem_fraction_static) {
    d->mem_fraction_static = *a.mem_fraction_static;
    return;
  }
  if (gpu_mem == 0) {
    d->mem_fraction_static = 0.88;  // server_args.py @v0.4.9: capacity unknown
    d->mem_fraction_rule = "GPU capacity unknown -> 0.88";
    return;
  }
  const double parallel = static_cast<double>(a.tp) * a.pp;
  double reserved = 0;
  const char* bucket = "";
  if (gpu_mem < 35 * 1024) {
    reserved = (2.8 + parallel / 10) * 1024;
    bucket = "<35 GiB: (2.8 + tp*pp/10) GiB";
  } else if (gpu_mem < 90 * 1024) {
    reserved = (9.5 + parallel / 2) * 1024;
    bucket = "35-90 GiB: (9.5 + tp*pp/2) GiB";
  } else if (gpu_mem < 160 * 1024) {
    reserved = (12 + parallel / 2) * 1024;
    bucket = "90-160 GiB: (12 + tp*pp/2) GiB";
  } else {
    reserved = 32 * 1024;
    bucket = ">=160 GiB: 32 GiB";
  }
  const char* speculative_term = "";
  if (in.speculative) {
    // v0.5.2 added 6 GiB for STANDALONE drafts; EAGLE/MTP keep 2 GiB.
    const bool standalone = a.speculative_algorithm == "STANDALONE";
    reserved += (standalone ? 6 : 2) * 1024;
    speculative_term = standalone ? " + 6 GiB standalone draft" : " + 2 GiB speculative";
  }
  const char* dp_term = "";
  if (a.enable_dp_attention) {
    reserved += 4 * 1024;
    dp_term = " + 4 GiB DP attention";
  }
  const double g = static_cast<double>(gpu_mem);
  d->mem_fraction_static = PyRound((g - reserved) / g, 3);
  Rule(in, &d->mem_fraction_rule,
       "v0.4.7.post1 rule: reserved {}{}{} = {:.0f} MiB; round(({} - {:.0f}) / {}, 3)", bucket,
       speculative_term, dp_term, reserved, gpu_mem, reserved, gpu_mem);
}

// server_args.py @v0.4.9: <35 GiB 2048, <160 GiB 8192, else 16384; unknown 4096
void ChunkedPrefillV047Post1(const SglangDefaultsInput& in, SglangDefaults* d) {
  const int64_t gpu_mem = in.gpu_mem_mib;
  if (in.args->chunked_prefill_size) {
    d->chunked_prefill_size = *in.args->chunked_prefill_size;
    return;
  }
  if (gpu_mem == 0) {
    d->chunked_prefill_size = 4096;
  } else if (gpu_mem < 35 * 1024) {
    d->chunked_prefill_size = 2048;
  } else if (gpu_mem < 160 * 1024) {
    d->chunked_prefill_size = 8192;
  } else {
    d->chunked_prefill_size = 16384;
  }
  Rule(in, &d->chunked_prefill_rule, "v0.4.7.post1 bucket for {} MiB", gpu_mem);
}

// server_args.py @v0.4.9: cuda_graph_max_bs only on <35 GiB cards; the
// capture list otherwise stops at 160 (256 on >90 GiB, 512 on >160,000 MiB).
void CaptureListV047Post1(const SglangDefaultsInput& in, SglangDefaults* d) {
  const SglangArgs& a = *in.args;
  const int64_t gpu_mem = in.gpu_mem_mib;
  int64_t user_bs = a.cuda_graph_max_bs.value_or(0);
  if (!a.cuda_graph_max_bs && gpu_mem > 0 && gpu_mem < 35 * 1024) {
    user_bs = a.tp < 4 ? 8 : 80;
    Rule(in, &d->cuda_graph_rule, "<35 GiB card, tp {} -> {}", a.tp, user_bs);
  }
  std::vector<int64_t> bs;
  auto range = [&bs](int64_t start, int64_t stop, int64_t step) {
    for (int64_t b = start; b < stop; b += step) bs.push_back(b);
  };
  if (in.speculative) {
    // cuda_graph_runner.py @v0.4.9: the speculative list
    range(1, 9, 1);
    range(10, 33, 2);
    range(40, 64, 8);
    range(80, 161, 16);
  } else {
    bs = {1, 2, 4, 8};
    range(16, 161, 8);
    if (gpu_mem > 90 * 1024) range(168, 257, 8);
    if (gpu_mem > 160000) range(272, 513, 16);
  }
  d->capture_bs = SglangLegacyCaptureList(bs, user_bs, true);
  d->cuda_graph_max_bs = d->capture_bs.empty() ? 0 : d->capture_bs.back();
  if (d->cuda_graph_rule.empty() && !a.cuda_graph_max_bs) {
    Rule(in, &d->cuda_graph_rule, "capture list for a {} MiB card ends at {}", gpu_mem,
         d->cuda_graph_max_bs);
  }
}

SglangDefaults DefaultsV047Post1(const SglangDefaultsInput& in) {
  SglangDefaults d;
  FractionV047Post1(in, &d);
  ChunkedPrefillV047Post1(in, &d);
  CaptureListV047Post1(in, &d);
  return d;
}

}  // namespace

const SglangEra& SglangEraV0_4_7Post1() {
  static const SglangEra era = [] {
    SglangEra e;
    e.id = "v0.4.7.post1";
    e.releases = "v0.4.7.post1 - v0.5.2 (Jun-Sep 2025)";
    e.source = "python/sglang/srt/server_args.py @v0.4.9 (ec5f9c62; #7054), @v0.5.2 (b0d25e72)";
    e.defaults = DefaultsV047Post1;
    e.pp_local_layers = true;
    e.spec_token_headroom = true;
    e.req_to_token_extra_rows = 0;
    e.capture_clipped_to_pool = true;
    e.req_to_token_draft_columns = false;
    e.swa_mode = 1;
    return e;
  }();
  return era;
}

}  // namespace kvplan
