// The memory accounting of an SGLang plan, stage by stage, each with its
// formula and numbers and the engine source it mirrors; texts only.
#include <fmt/core.h>

#include "base/format.h"
#include "base/text.h"
#include "base/units.h"
#include "engines/sglang/stages.h"

namespace kvplan {
namespace {

// pre_load_free, post_load_free, slack and rest_memory.
void DescribeBudget(const SglangStages& s, const GpuSpec& gpu, std::vector<Stage>* out) {
  const SglangWeights& w = s.weights;
  const SglangBudget& b = s.budget;
  if (w.pre_measured) {
    out->push_back({"pre_load_free", "measured", w.pre_load_free, "given", ""});
  } else {
    out->push_back({"pre_load_free",
                    fmt::format("GPU total {} - CUDA context and communicators {} (estimate; pass "
                                "--pre-load-free-gib to use a measured value)",
                                FormatGiB(gpu.total_bytes, 3), FormatGiB(w.startup_overhead, 3)),
                    w.pre_load_free,
                    "utils/common.py get_available_gpu_memory after init_torch_distributed", ""});
  }
  if (w.post_measured) {
    out->push_back({"post_load_free", "measured", w.post_load_free, "given", ""});
  } else {
    std::string f = fmt::format("pre_load_free {} - weights per rank {}",
                                FormatGiB(w.pre_load_free, 3), FormatGiB(w.weights, 3));
    if (w.draft_subtracted) {
      f += fmt::format(" - draft weights {} (#28855: loaded before profiling)",
                       FormatGiB(w.draft_weights, 3));
    }
    out->push_back({"post_load_free", f, w.post_load_free, "model_runner.py load_model", ""});
  }
  out->push_back(
      {"slack",
       fmt::format("pre_load_free * (1 - mem_fraction_static) = {:.3f} * (1 - {:.3f}) = {:.3f} GiB",
                   b.pre_gib, s.settings.mem_fraction_static, b.slack_gib),
       b.slack_bytes, s.launch.era->source, ""});
  const SglangStatePool& st = s.state;
  const double rest_gib = st.active ? st.rest_before_gib : b.rest_gib;
  out->push_back({"rest_memory",
                  fmt::format("post_load_free - slack = {:.3f} - {:.3f} = {:.3f} GiB", b.post_gib,
                              b.slack_gib, rest_gib),
                  st.active ? st.rest_before_bytes : b.rest_bytes,
                  "model_runner.py profile_max_num_token", ""});
}

// How max_mamba_cache_size was chosen.
std::string StateSlotsFormula(const SglangStatePool& st, double rest_gib) {
  switch (st.rule) {
    case SglangStateRule::kRatio:
      return fmt::format(
          "max_mamba_cache_size = int({:.3f} GiB * {} / (1 + {}) * 2^30 // {} B) = {} slots "
          "(--mamba-full-memory-ratio {})",
          rest_gib, st.ratio, st.ratio, WithThousands(st.per_req), st.slots, st.ratio);
    case SglangStateRule::kUserSize:
      return fmt::format("max_mamba_cache_size = --max-mamba-cache-size = {} slots", st.slots);
    case SglangStateRule::kRadixOffReqs:
      return fmt::format(
          "max_mamba_cache_size = --max-running-requests (radix cache disabled) = {} slots",
          st.slots);
    case SglangStateRule::kRadixOffDefault:
      return fmt::format("max_mamba_cache_size = 512 (radix cache disabled) = {} slots", st.slots);
  }
  return "";
}

// mamba_cache_per_req, the intermediate states of speculative decoding, the
// state pool and the rest left for the KV cache.
void DescribeStatePool(const SglangStages& s, std::vector<Stage>* out) {
  const SglangStatePool& st = s.state;
  if (!st.active) return;
  const StateShape& sh = st.shape.shape;
  out->push_back(
      {"mamba_cache_per_req",
       fmt::format("{} state layers * (conv {} x {} x {} B + ssm {} x {} x {} x {} B) = "
                   "{} B",
                   st.shape.layers, sh.conv_channels, sh.conv_width, st.conv_bytes, sh.heads,
                   sh.head_dim, sh.state_size, st.ssm_bytes, WithThousands(st.per_req)),
       st.per_req, "configs/mamba_utils.py mamba_cache_per_req; catalog/state_shapes.h", ""});
  double rest_gib = st.rest_before_gib;
  if (st.intermediate_bytes > 0) {
    out->push_back({"mamba intermediate states",
                    fmt::format("mamba_cache_per_req * {} requests * {} draft tokens",
                                st.intermediate_reqs, s.settings.spec.draft_tokens),
                    st.intermediate_bytes, "model_runner.py handle_max_mamba_cache", ""});
    rest_gib -= ToGiB(st.intermediate_bytes);
  }
  out->push_back({"mamba state pool",
                  StateSlotsFormula(st, rest_gib) +
                      fmt::format("; {} slots * {} B (the pool holds one padding slot more, "
                                  "from the slack)",
                                  st.slots, WithThousands(st.per_req)),
                  st.bytes, "model_runner.py handle_max_mamba_cache", ""});
  out->push_back(
      {"rest_memory for the KV cache",
       fmt::format("rest_memory - state pool{} = {:.3f} GiB",
                   st.intermediate_bytes > 0 ? " - intermediate states" : "", s.budget.rest_gib),
       s.budget.rest_bytes, "model_runner.py handle_max_mamba_cache", ""});
}

// cell_size, the profiled tokens, the draft's headroom and max_total_num_tokens.
void DescribeTokens(const SglangStages& s, const ModelSpec& model, std::vector<Stage>* out) {
  const SglangTokens& t = s.tokens;
  const SglangCell& cell = s.cell;
  out->push_back({"cell_size", SglangCellFormula(cell, model), 0,
                  "model_runner.py profile_max_num_token: cell_size",
                  fmt::format("{} B/token", WithThousands(cell.bytes))});
  const std::string profiled =
      cell.hybrid_mode == 3
          ? fmt::format(
                "int((rest_memory * 2^30 - c128 state pool) / bytes_per_full_token) = "
                "int(({} - {}) / {:.2f}) = {}",
                s.budget.rest_bytes, cell.dsv4.c128_state_bytes, cell.hybrid_divisor, t.profiled)
          : fmt::format("int(rest_memory * 2^30) // cell_size = {} // {} = {}", s.budget.rest_bytes,
                        cell.bytes, t.profiled);
  out->push_back({"profiled tokens", profiled, 0, "model_runner.py profile_max_num_token",
                  fmt::format("{} tokens", WithThousands(t.profiled))});
  const bool headroom = s.launch.spec && s.launch.era->spec_token_headroom;
  if (headroom) {
    const SglangSpecParams& sp = s.settings.spec;
    const int64_t reqs = s.pool.max_num_reqs;
    out->push_back({"speculative headroom",
                    fmt::format("+ {} * {} * {} + {} * {} + 100 = +{} tokens", reqs, sp.steps,
                                sp.topk, reqs, sp.draft_tokens, t.headroom),
                    0, "model_runner.py init_memory_pool @v0.5.3",
                    fmt::format("+{} tokens", t.headroom)});
  }
  out->push_back(
      {"max_total_num_tokens",
       fmt::format("min(profiled{}, --max-total-tokens) // page_size {} * page_size = {}",
                   headroom ? " + headroom" : "", s.settings.page_size, t.tokens),
       0, "model_runner.py init_memory_pool", fmt::format("{} tokens", WithThousands(t.tokens))});
}

}  // namespace

void DescribeSglangStages(const SglangStages& s, const ModelSpec& model, const GpuSpec& gpu,
                          PlanResult* r) {
  DescribeBudget(s, gpu, &r->stages);
  DescribeStatePool(s, &r->stages);
  DescribeTokens(s, model, &r->stages);
  const SglangSlack& sl = s.slack;
  r->stages.push_back({"req_to_token pool",
                       fmt::format("4 B * {} rows * (context {} + 4{}) (from the slack)",
                                   s.running.pool_rows, s.settings.context_length,
                                   sl.draft_columns ? fmt::format(" + {}", sl.draft_columns) : ""),
                       sl.req_to_token, "mem_cache/memory_pool.py ReqToTokenPool", ""});
  if (sl.graphs.Total() > 0) {
    r->stages.push_back(
        {"CUDA graphs (estimate)", sl.graphs.formula + " (from the slack)", sl.graphs.Total(),
         "measured by the engine at capture (cuda_graph_runner.py); kvplan's fit", ""});
  }
}

}  // namespace kvplan
