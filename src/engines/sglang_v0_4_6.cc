// SGLang v0.4.6 (84022c0e, 2025-04-27) and v0.4.6.post2-v0.4.7 (#5893,
// 2025-04-30): a fixed table of mem_fraction_static by TP size.
#include <fmt/core.h>

#include "engines/sglang_era.h"

namespace kvplan {
namespace {

int64_t TableParallel(const SglangDefaultsInput& in, bool use_pp) {
  return use_pp ? int64_t{in.args->tp} * in.args->pp : in.args->tp;
}

// python/sglang/srt/server_args.py @v0.4.6 __post_init__: table by TP size
double V046Table(int64_t parallel) {
  if (parallel >= 16) return 0.79;
  if (parallel >= 8) return 0.81;
  if (parallel >= 4) return 0.85;
  if (parallel >= 2) return 0.87;
  return 0.88;
}

// python/sglang/srt/model_executor/cuda_graph_runner.py @v0.4.6 get_batch_sizes_to_capture
std::vector<int64_t> V046CaptureList(int64_t gpu_mem, int dp, int64_t user_max_bs) {
  std::vector<int64_t> bs = {1, 2, 4, 8};
  for (int64_t b = 16; b < 161; b += 8) bs.push_back(b);
  if (gpu_mem > 81920 && dp == 1) {  // #5604: larger list on >80 GiB cards
    for (int64_t b = 168; b < 257; b += 8) bs.push_back(b);
  }
  if (user_max_bs > 0) {
    std::vector<int64_t> kept;
    for (int64_t b : bs) {
      if (b <= user_max_bs) kept.push_back(b);
    }
    // Padded with range(max(kept), cuda_graph_max_bs + 1, 16).
    int64_t last = kept.empty() ? 1 : kept.back();
    for (int64_t b = last + 16; b <= user_max_bs; b += 16) kept.push_back(b);
    bs = kept;
  }
  return bs;
}

SglangDefaults Defaults(const SglangDefaultsInput& in, bool post2) {
  const SglangArgs& a = *in.args;
  SglangDefaults d;
  const int64_t gpu_mem = in.gpu_mem_mib;
  const int64_t parallel = TableParallel(in, post2);
  if (a.mem_fraction_static) {
    d.mem_fraction_static = *a.mem_fraction_static;
  } else if (gpu_mem > 0 && gpu_mem <= 81920) {
    d.mem_fraction_static = V046Table(parallel);
    d.mem_fraction_rule = fmt::format("v0.4.6 table for <=80 GiB cards: {} {} -> {}",
                                      post2 ? "tp*pp" : "tp", parallel, d.mem_fraction_static);
  } else if (gpu_mem > 81920 && !post2) {
    // server_args.py @v0.4.6: (gpu_mem - 13 GiB) / gpu_mem for larger cards
    d.mem_fraction_static = static_cast<double>(gpu_mem - 1024 * 13) / static_cast<double>(gpu_mem);
    d.mem_fraction_rule = fmt::format("v0.4.6: ({} - 13*1024) / {} MiB", gpu_mem, gpu_mem);
  } else if (gpu_mem > 0) {
    // server_args.py @v0.4.6.post2 (#5893): table, then lifted for >96 GiB cards
    double mf = V046Table(parallel);
    if (gpu_mem > 96 * 1024) {
      const double reserve = (in.speculative ? 20.0 : 18.0) * 1024;
      const double g = static_cast<double>(gpu_mem);
      mf = std::min(mf + 48.0 * 1024 * (1 - mf) / g, (g - reserve) / g);
    }
    if (gpu_mem > 180 * 1000) {
      mf = 0.79;  // v0.4.7 (#6718): B200-class cards
    } else if (in.speculative) {
      mf *= 0.95;
    }
    d.mem_fraction_static = mf;
    d.mem_fraction_rule =
        fmt::format("v0.4.6.post2 table (tp*pp {}) lifted for {} MiB", parallel, gpu_mem);
  } else {
    d.mem_fraction_static = V046Table(parallel);
    d.mem_fraction_rule = "v0.4.6 table (GPU capacity unknown)";
  }

  if (a.chunked_prefill_size) {
    d.chunked_prefill_size = *a.chunked_prefill_size;
  } else {
    // server_args.py @v0.4.6: 2048 below 25,000 MiB, else 8192 (16384 >180 GB from v0.4.7)
    d.chunked_prefill_size = gpu_mem > 0 && gpu_mem < 25000 ? 2048 : 8192;
    if (post2 && gpu_mem > 180000) d.chunked_prefill_size = 16384;
    d.chunked_prefill_rule = fmt::format("v0.4.6: {} MiB card", gpu_mem);
    if (a.enable_dp_attention) {
      d.chunked_prefill_size /= a.dp;
      d.chunked_prefill_rule += fmt::format(", divided by dp {} under DP attention", a.dp);
    }
  }

  int64_t user_bs = a.cuda_graph_max_bs.value_or(0);
  if (!a.cuda_graph_max_bs && gpu_mem > 0 && gpu_mem < 25000) {
    user_bs = a.tp < 4 ? 8 : 80;  // server_args.py @v0.4.6: small cards
    d.cuda_graph_rule = fmt::format("v0.4.6: <25,000 MiB card, tp {} -> {}", a.tp, user_bs);
  }
  d.capture_bs = V046CaptureList(gpu_mem, a.dp, user_bs);
  d.cuda_graph_max_bs = d.capture_bs.back();
  if (d.cuda_graph_rule.empty() && !a.cuda_graph_max_bs) {
    d.cuda_graph_rule = fmt::format("v0.4.6 capture list [1,2,4,8,16..160{}]",
                                    d.cuda_graph_max_bs > 160 ? ",168..256" : "");
  }
  return d;
}

SglangDefaults DefaultsV046(const SglangDefaultsInput& in) { return Defaults(in, false); }
SglangDefaults DefaultsV046Post2(const SglangDefaultsInput& in) { return Defaults(in, true); }

}  // namespace

const SglangEra& SglangEraV0_4_6() {
  static const SglangEra era = [] {
    SglangEra e;
    e.id = "v0.4.6";
    e.releases = "v0.4.6 - v0.4.6.post1 (Apr 2025)";
    e.source =
        "python/sglang/srt/{server_args.py,model_executor/model_runner.py} @v0.4.6 (84022c0e)";
    e.defaults = DefaultsV046;
    e.pp_local_layers = false;
    e.spec_token_headroom = true;
    e.req_to_token_extra_rows = 1;
    e.multimodal_scales_user_value = true;
    return e;
  }();
  return era;
}

const SglangEra& SglangEraV0_4_6Post2() {
  static const SglangEra era = [] {
    SglangEra e = SglangEraV0_4_6();
    e.id = "v0.4.6.post2";
    e.releases = "v0.4.6.post2 - v0.4.7 (May-Jun 2025)";
    e.source = "python/sglang/srt/server_args.py @v0.4.7 (4f723edd; #5893, #6718)";
    e.defaults = DefaultsV046Post2;
    e.pp_local_layers = true;  // v0.4.7: num_effective_layers (PP-local)
    return e;
  }();
  return era;
}

}  // namespace kvplan
