// SGLang v0.4.6 (84022c0e, 2025-04-27) and v0.4.6.post2-v0.4.7 (#5893,
// 2025-04-30): a fixed table of mem_fraction_static by TP size.
#include <fmt/core.h>

#include "engines/sglang/era.h"

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

// model_executor/cuda_graph_runner.py @v0.4.6 get_batch_sizes_to_capture; the
// >96 GiB and >180,000 MiB ranges are #6718 (v0.4.6.post2-v0.4.7).
std::vector<int64_t> V046CaptureList(const SglangDefaultsInput& in, bool post2,
                                     int64_t user_max_bs) {
  std::vector<int64_t> bs;
  auto range = [&bs](int64_t start, int64_t stop, int64_t step) {
    for (int64_t b = start; b < stop; b += step) bs.push_back(b);
  };
  const int64_t gpu_mem = in.gpu_mem_mib;
  if (in.speculative) {
    range(1, 9, 1);
    range(10, 33, 2);
    range(40, 161, 16);
  } else {
    bs = {1, 2, 4, 8};
    range(16, 161, 8);
    if (post2 ? gpu_mem > 96 * 1024 : (gpu_mem > 81920 && in.args->dp == 1)) range(168, 257, 8);
    if (post2 && gpu_mem > 180 * 1000) range(272, 513, 16);
  }
  return SglangLegacyCaptureList(bs, user_max_bs, post2);
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
    Rule(in, &d.mem_fraction_rule, "v0.4.6 table for <=80 GiB cards: {} {} -> {}",
         post2 ? "tp*pp" : "tp", parallel, d.mem_fraction_static);
  } else if (gpu_mem > 81920 && !post2) {
    // server_args.py @v0.4.6: (gpu_mem - 13 GiB) / gpu_mem for larger cards
    d.mem_fraction_static = static_cast<double>(gpu_mem - 1024 * 13) / static_cast<double>(gpu_mem);
    Rule(in, &d.mem_fraction_rule, "v0.4.6: ({} - 13*1024) / {} MiB", gpu_mem, gpu_mem);
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
    Rule(in, &d.chunked_prefill_rule, "v0.4.6: {} MiB card", gpu_mem);
  }

  int64_t user_bs = a.cuda_graph_max_bs.value_or(0);
  if (!a.cuda_graph_max_bs && gpu_mem > 0 && gpu_mem < 25000) {
    user_bs = a.tp < 4 ? 8 : 80;  // server_args.py @v0.4.6: small cards
    Rule(in, &d.cuda_graph_rule, "v0.4.6: <25,000 MiB card, tp {} -> {}", a.tp, user_bs);
  }
  d.capture_bs = V046CaptureList(in, post2, user_bs);
  d.cuda_graph_max_bs = d.capture_bs.back();
  if (d.cuda_graph_rule.empty() && !a.cuda_graph_max_bs) {
    Rule(in, &d.cuda_graph_rule, "v0.4.6 capture list [1,2,4,8,16..160{}]",
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
    e.capture_clipped_to_pool = true;
    e.req_to_token_draft_columns = false;
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
    e.req_to_token_extra_rows = 0;
    return e;
  }();
  return era;
}

}  // namespace kvplan
