// The SGLang start-up pipeline common to every era: defaults, the two free
// memory measurements, rest_memory, cell size, max_total_num_tokens with its
// clamps in the engine's order, the request pool, and the failure messages.
// Where releases differ, the era (sglang_era.h) decides.
#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "engines/sglang.h"
#include "engines/sglang_cell.h"
#include "engines/sglang_era.h"
#include "engines/sglang_fixes.h"
#include "models/weights.h"
#include "util/error.h"
#include "util/units.h"

namespace kvplan {
namespace {

// Memory the CUDA context and the communicators take before SGLang measures
// pre-load free memory. Not measured by kvplan: an estimate, shown as such.
// Figures from the cases: RTX PRO 6000 TP8 over PCIe 0.97 GiB (the story),
// H200 TP4 about 1.5 GiB (sglang-qwen3-30b-a3b-dp4-dpattn-pr17392), B200 TP4
// about 2.1 GiB (sglang-b200-qwen3-32b-tp4-pr22537).
int64_t EstimatedStartupOverhead(const GpuSpec& gpu, int world_size) {
  int64_t bytes = 512 * kMiB;  // CUDA context and torch
  if (world_size > 1) {
    // NCCL buffers, plus NVLS and custom-allreduce IPC buffers on NVLink.
    bytes += gpu.link == LinkKind::kNvlink ? (gpu.nvlink_generation >= 5 ? 1536 : 1024) * kMiB
                                           : 480 * kMiB;
  }
  return bytes;
}

std::string Gib(int64_t bytes) { return fmt::format("{:.3f} GiB", ToGiB(bytes)); }

void Validate(const SglangArgs& a) {
  auto positive = [](const char* flag, int64_t v) {
    if (v < 1) throw InputError(fmt::format("{} must be at least 1, got {}", flag, v));
  };
  positive("--tp-size", a.tp);
  positive("--pp-size", a.pp);
  positive("--dp-size", a.dp);
  positive("--ep-size", a.ep);
  if (a.mem_fraction_static && !(*a.mem_fraction_static > 0 && *a.mem_fraction_static < 1)) {
    throw InputError(
        fmt::format("--mem-fraction-static must be between 0 and 1 (exclusive), got {}",
                    *a.mem_fraction_static));
  }
  if (a.enable_dp_attention && a.tp % a.dp != 0) {
    throw InputError(fmt::format(
        "--enable-dp-attention needs --tp-size divisible by --dp-size, got tp {} and dp {}", a.tp,
        a.dp));
  }
  if (a.page_size) positive("--page-size", *a.page_size);
  if (a.context_length) positive("--context-length", *a.context_length);
  if (a.max_running_requests) positive("--max-running-requests", *a.max_running_requests);
  if (a.max_total_tokens) positive("--max-total-tokens", *a.max_total_tokens);
  if (a.cuda_graph_max_bs) positive("--cuda-graph-max-bs", *a.cuda_graph_max_bs);
  if (a.speculative_num_steps) positive("--speculative-num-steps", *a.speculative_num_steps);
  if (a.speculative_eagle_topk) positive("--speculative-eagle-topk", *a.speculative_eagle_topk);
  if (a.speculative_num_draft_tokens) {
    positive("--speculative-num-draft-tokens", *a.speculative_num_draft_tokens);
  }
  if (a.swa_full_tokens_ratio && !(*a.swa_full_tokens_ratio > 0 && *a.swa_full_tokens_ratio <= 1)) {
    throw InputError(
        fmt::format("--swa-full-tokens-ratio must be in (0, 1], got {}", *a.swa_full_tokens_ratio));
  }
  if (a.speculative_algorithm.empty() &&
      (a.speculative_num_steps || a.speculative_eagle_topk || a.speculative_num_draft_tokens ||
       !a.speculative_draft_model_path.empty())) {
    throw InputError(
        "speculative flags are given without --speculative-algorithm (expected EAGLE, EAGLE3, "
        "NEXTN, STANDALONE or NGRAM)");
  }
}

// Page size: 1 unless the attention backend needs pages (flashmla / trtllm
// kernels work in 64-token pages, cutlass_mla in 128).
int64_t ResolvePageSize(const SglangArgs& a, std::string* rule) {
  if (a.page_size) return *a.page_size;
  // python/sglang/srt/server_args.py @v0.5.3 _handle_attention_backend_compatibility
  if (a.attention_backend == "flashmla" || a.attention_backend == "trtllm_mha" ||
      a.attention_backend == "trtllm_mla" || a.attention_backend == "nsa" ||
      a.attention_backend == "dsa") {
    *rule = fmt::format("--attention-backend {} needs 64-token pages", a.attention_backend);
    return 64;
  }
  if (a.attention_backend == "cutlass_mla") {
    *rule = "--attention-backend cutlass_mla needs 128-token pages";
    return 128;
  }
  *rule = "default";
  return 1;
}

}  // namespace

PlanResult PlanSglang(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                      const SglangArgs& args_in, const SglangMeasured& measured,
                      const ModelSpec* draft, const SglangPlanOptions& opts) {
  SglangArgs a = args_in;
  Validate(a);
  for (char& ch : a.speculative_algorithm) ch = static_cast<char>(std::toupper(ch));
  if (a.speculative_algorithm == "MTP") a.speculative_algorithm = "NEXTN";
  const bool spec = !a.speculative_algorithm.empty() && a.speculative_algorithm != "NGRAM";

  PlanResult r;
  r.engine = "sglang";
  int64_t vkey = 0;
  const SglangEra& era = SglangEraFor(version, &r.engine_version, &vkey);
  r.era = era.id;
  r.fraction_name = "mem_fraction_static";
  const bool explain = opts.explain;
  auto setting = [&](std::string flag, std::string value, bool user, std::string rule) {
    if (explain) r.settings.push_back({std::move(flag), std::move(value), user, std::move(rule)});
  };
  auto stage = [&](std::string name, std::string formula, int64_t bytes, std::string source) {
    if (explain)
      r.stages.push_back({std::move(name), std::move(formula), bytes, std::move(source)});
  };
  if (vkey > SglangVersionKey(0, 5, 19) && vkey != SglangVersionKey(0, 5, 999) && explain) {
    r.warnings.push_back(fmt::format(
        "SGLang {} is newer than the newest modelled release; main's rules are used", version));
  }

  // --- Defaults -----------------------------------------------------------
  SglangDefaultsInput in;
  in.version = vkey;
  in.args = &a;
  in.model = &model;
  in.gpu_mem_mib = measured.gpu_capacity_mib.value_or(gpu.capacity_mib);
  in.is_mla = model.attention == AttentionKind::kMla;
  in.speculative = spec;
  SglangDefaults d = era.defaults(in);
  double mfs = d.mem_fraction_static;
  std::string mfs_rule = d.mem_fraction_rule;
  if (model.multimodal) {
    if (era.multimodal_scales_user_value || !a.mem_fraction_static) {
      // model_runner.py @v0.4.6 / server_args.py adjust_mem_fraction_for_vlm (#6881)
      double factor = 0.90;
      if (vkey >= SglangVersionKey(0, 4, 10) && model.vision_layers > 0) {
        const double complexity = static_cast<double>(model.vision_layers) *
                                  model.vision_hidden_size * model.vision_hidden_size /
                                  (24.0 * 1024 * 1024);
        factor = 0.95 * std::clamp(1.0 - 0.1 * (complexity - 1.0), 0.8, 1.05);
      }
      mfs *= factor;
      mfs_rule += fmt::format("; multimodal model: * {:.4f}", factor);
    }
  }
  r.fraction = mfs;
  r.fraction_user = a.mem_fraction_static.has_value();
  setting("--mem-fraction-static", fmt::format("{:.3f}", mfs), r.fraction_user, mfs_rule);
  setting("--chunked-prefill-size", std::to_string(d.chunked_prefill_size),
          a.chunked_prefill_size.has_value(), d.chunked_prefill_rule);
  setting("--cuda-graph-max-bs",
          a.disable_cuda_graph ? "disabled" : std::to_string(d.cuda_graph_max_bs),
          a.cuda_graph_max_bs.has_value() || a.disable_cuda_graph, d.cuda_graph_rule);
  if (explain && (era.swa_mode == 2 || d.piecewise_cuda_graph)) {
    setting("--enable-piecewise-cuda-graph", d.piecewise_cuda_graph ? "on" : "off",
            a.piecewise_cuda_graph.has_value(), d.piecewise_rule);
  }
  std::string page_rule;
  const int64_t page = ResolvePageSize(a, &page_rule);
  setting("--page-size", std::to_string(page), a.page_size.has_value(), page_rule);
  const int64_t context_len = a.context_length.value_or(model.max_position_embeddings);
  if (context_len <= 0) {
    throw InputError(
        fmt::format("model {} has no max_position_embeddings; pass --context-length", model.id));
  }
  r.context_length = context_len;
  setting("--context-length", std::to_string(context_len), a.context_length.has_value(),
          "max_position_embeddings of the model config");
  if (explain && a.context_length && model.max_position_embeddings > 0 &&
      *a.context_length > model.max_position_embeddings) {
    r.warnings.push_back(fmt::format(
        "--context-length {} exceeds the model's max_position_embeddings {}; SGLang refuses this "
        "unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1",
        *a.context_length, model.max_position_embeddings));
  }
  setting("--kv-cache-dtype", a.kv_cache_dtype, a.kv_cache_dtype != "auto",
          a.kv_cache_dtype == "auto" ? fmt::format("auto: the model dtype ({})", model.torch_dtype)
                                     : "");
  int64_t spec_steps = 0, spec_topk = 0, spec_draft_tokens = 0;
  if (spec) {
    // server_args.py: EAGLE defaults when unset (auto-chosen per architecture
    // in later releases; 3 steps, top-k 1, 4 draft tokens is the common choice).
    spec_steps = a.speculative_num_steps.value_or(3);
    spec_topk = a.speculative_eagle_topk.value_or(1);
    spec_draft_tokens = a.speculative_num_draft_tokens.value_or(spec_steps * spec_topk + 1);
    setting("--speculative-num-steps", std::to_string(spec_steps),
            a.speculative_num_steps.has_value(), "assumed default 3");
    setting("--speculative-eagle-topk", std::to_string(spec_topk),
            a.speculative_eagle_topk.has_value(), "assumed default 1");
    setting("--speculative-num-draft-tokens", std::to_string(spec_draft_tokens),
            a.speculative_num_draft_tokens.has_value(), "assumed steps * topk + 1");
  }

  // --- Free memory before and after loading -------------------------------
  const int world = a.tp * a.pp * (a.enable_dp_attention ? 1 : a.dp);
  r.gpu_total_bytes = gpu.total_bytes;
  int64_t pre_bytes = 0;
  if (measured.pre_load_free_bytes) {
    pre_bytes = *measured.pre_load_free_bytes;
    stage("pre_load_free", fmt::format("measured: {}", Gib(pre_bytes)), pre_bytes, "given");
  } else {
    const int64_t overhead = EstimatedStartupOverhead(gpu, a.tp * a.pp);
    pre_bytes = gpu.total_bytes - overhead;
    stage("pre_load_free",
          fmt::format("GPU total {} - CUDA context and communicators {} (estimate; pass "
                      "--pre-load-free-gib to use a measured value)",
                      Gib(gpu.total_bytes), Gib(overhead)),
          pre_bytes, "utils/common.py get_available_gpu_memory after init_torch_distributed");
  }
  Parallelism par;
  par.tp = a.tp;
  par.pp = a.pp;
  par.dp = a.dp;
  par.ep = a.ep;
  par.dp_attention = a.enable_dp_attention;
  const WeightEstimate w = EstimateWeights(model, par);
  int64_t weights = w.bytes_per_rank;
  int64_t draft_weights = 0;
  if (spec && draft != nullptr) {
    Parallelism dpar = par;
    draft_weights = EstimateWeights(*draft, dpar).bytes_per_rank;
  }
  int64_t post_bytes = 0;
  if (measured.post_load_free_bytes) {
    post_bytes = *measured.post_load_free_bytes;
    weights = pre_bytes - post_bytes;
    stage("post_load_free", fmt::format("measured: {}", Gib(post_bytes)), post_bytes, "given");
  } else {
    post_bytes = pre_bytes - weights;
    std::string f =
        fmt::format("pre_load_free {} - weights per rank {}", Gib(pre_bytes), Gib(weights));
    if (era.draft_weights_before_profile && draft_weights > 0) {
      post_bytes -= draft_weights;
      f += fmt::format(" - draft weights {} (#28855: loaded before profiling)", Gib(draft_weights));
    }
    stage("post_load_free", f, post_bytes, "model_runner.py load_model");
  }
  r.pre_load_free_bytes = pre_bytes;
  r.post_load_free_bytes = post_bytes;
  r.weights_bytes_per_gpu = weights;

  // --- rest_memory (GiB floats, as the engine computes it) ----------------
  // get_available_gpu_memory all-reduces a float32 tensor over ranks.
  double pre_gib = ToGiB(pre_bytes);
  double post_gib = ToGiB(post_bytes);
  if (world > 1 && !measured.pre_load_free_bytes) {
    pre_gib = static_cast<double>(static_cast<float>(pre_bytes)) / static_cast<double>(kGiB);
    post_gib = static_cast<double>(static_cast<float>(post_bytes)) / static_cast<double>(kGiB);
  }
  const double slack_gib = pre_gib * (1 - mfs);
  const double rest_gib = post_gib - slack_gib;
  const int64_t rest_bytes = TruncToInt64(rest_gib * static_cast<double>(kGiB));
  r.rest_memory_bytes = rest_bytes;
  stage(
      "slack",
      fmt::format("pre_load_free * (1 - mem_fraction_static) = {:.3f} * (1 - {:.3f}) = {:.3f} GiB",
                  pre_gib, mfs, slack_gib),
      GiBToBytes(slack_gib), era.source);
  stage("rest_memory",
        fmt::format("post_load_free - slack = {:.3f} - {:.3f} = {:.3f} GiB", post_gib, slack_gib,
                    rest_gib),
        rest_bytes, "model_runner.py profile_max_num_token");

  // --- Cell size and tokens -------------------------------------------------
  const SglangCell cell = SglangCellSize(era, vkey, model, a, draft);
  r.cell_size_bytes = cell.bytes;
  stage("cell_size", cell.formula, cell.bytes, "model_runner.py profile_max_num_token: cell_size");

  auto fail = [&](std::string message) {
    r.ok = false;
    r.error_message = std::move(message);
  };
  r.ok = true;
  if (era.rest_memory_error && rest_gib <= 0) {
    // kv_cache_configurator.py @main 2026-08 (#28855): ValueError on rest_memory <= 0
    const double minimum = 1 - post_gib / pre_gib;
    fail(fmt::format(
        "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static={}. "
        "Raise --mem-fraction-static above {:.3f} (minimum viable = 1 - available/pre = {:.4f}). "
        "If using speculative decoding, draft weights are now counted.",
        mfs, minimum, minimum));
  }
  int64_t tokens = 0;
  if (cell.hybrid_swa) {
    // pool_configurator.py HybridSWAPoolConfigurator: budget // (F*n_full + r*S*n_swa)
    tokens = static_cast<int64_t>(std::floor(
        static_cast<double>(rest_bytes) / (static_cast<double>(cell.full_bytes) +
                                           cell.swa_ratio * static_cast<double>(cell.swa_bytes))));
  } else {
    tokens = FloorDiv(rest_bytes, cell.bytes);
  }
  const int64_t profiled = tokens;
  stage("profiled tokens",
        fmt::format("int(rest_memory * 2^30) // cell_size = {} // {} = {}", rest_bytes, cell.bytes,
                    tokens),
        0, "model_runner.py profile_max_num_token");

  // --- Request pool size (max_num_reqs) ------------------------------------
  int64_t max_num_reqs = 0;
  std::string reqs_rule;
  if (a.max_running_requests) {
    max_num_reqs = *a.max_running_requests;
    reqs_rule = "user";
  } else if (spec) {
    // server_args.py (#4908): speculative decoding resets it to 48
    max_num_reqs = 48;
    reqs_rule = "reset to 48 for speculative decoding";
  } else {
    // model_runner.py: min(max(int(tokens / context_len * 512), 2048), 4096)
    max_num_reqs = std::min<int64_t>(
        std::max<int64_t>(TruncToInt64(static_cast<double>(tokens) / context_len * 512), 2048),
        4096);
    reqs_rule = fmt::format("min(max(int({} / {} * 512), 2048), 4096)", tokens, context_len);
  }

  // --- Clamps in the engine's order ----------------------------------------
  if (spec && era.spec_token_headroom) {
    // model_runner.py @v0.5.3 init_memory_pool: draft_runner_cache_size headroom (#15748 removed
    // it)
    const int64_t headroom =
        max_num_reqs * spec_steps * spec_topk + max_num_reqs * spec_draft_tokens + 100;
    tokens += headroom;
    stage("speculative headroom",
          fmt::format("+ {} * {} * {} + {} * {} + 100 = +{} tokens", max_num_reqs, spec_steps,
                      spec_topk, max_num_reqs, spec_draft_tokens, headroom),
          0, "model_runner.py init_memory_pool @v0.5.3");
  }
  if (a.max_total_tokens) {
    if (*a.max_total_tokens > tokens && explain) {
      r.warnings.push_back(
          fmt::format("max_total_tokens={} is larger than the profiled value {}. Use the profiled "
                      "value instead.",
                      *a.max_total_tokens, tokens));
    }
    tokens = std::min(tokens, *a.max_total_tokens);
  }
  tokens = FloorDiv(tokens, page) * page;
  stage("max_total_num_tokens",
        fmt::format("min(profiled{}, --max-total-tokens) // page_size {} * page_size = {}",
                    era.spec_token_headroom && spec ? " + headroom" : "", page, tokens),
        0, "model_runner.py init_memory_pool");
  r.max_total_num_tokens = tokens;
  if (r.ok && tokens <= 0) {
    std::string msg = "Not enough memory. Please try to increase --mem-fraction-static.";
    if (era.error_names_mfs_server_args) {
      msg += fmt::format(" Current value: self.server_args.mem_fraction_static={}", mfs);
    } else if (era.error_names_mfs) {
      msg += fmt::format(" Current value: mem_fraction_static={}", mfs);
    }
    fail(msg);
  }

  // --- max_running_requests --------------------------------------------------
  const int64_t pool_rows = max_num_reqs + era.req_to_token_extra_rows;
  if (era.scheduler_min_pool) {
    // managers/tp_worker.py @v0.5.3: min(tokens // 2 or user // dp, req_to_token_pool.size)
    const int64_t want = a.max_running_requests
                             ? *a.max_running_requests / (a.enable_dp_attention ? a.dp : 1)
                             : tokens / 2;
    r.max_running_requests = std::min(want, max_num_reqs + (era.req_to_token_extra_rows));
  } else {
    // kv_cache_configurator.py resolve_max_num_reqs (2026)
    const int64_t want = a.max_running_requests
                             ? *a.max_running_requests / (a.enable_dp_attention ? a.dp : 1)
                             : max_num_reqs;
    r.max_running_requests = std::min(want, tokens / 2);
  }
  if (r.max_running_requests < 0) r.max_running_requests = 0;
  setting("--max-running-requests", std::to_string(r.max_running_requests),
          a.max_running_requests.has_value(), reqs_rule);

  // --- What comes out of the slack ------------------------------------------
  const int64_t draft_tokens_per_req = spec ? spec_draft_tokens : 0;
  const int64_t req_to_token = 4 * pool_rows * (context_len + 4 + draft_tokens_per_req);
  const int64_t kv_pool = std::max<int64_t>(0, (tokens + page) * cell.bytes);
  int64_t draft_kv = 0;
  if (spec && !era.draft_kv_in_cell && draft != nullptr && r.ok) {
    SglangArgs da = a;
    da.speculative_algorithm.clear();
    const SglangCell dc = SglangCellSize(era, vkey, *draft, da, nullptr);
    draft_kv = (tokens + page) * dc.bytes;
  }
  const int64_t slack_bytes = GiBToBytes(slack_gib);
  const int64_t graphs_estimate =
      a.disable_cuda_graph ? 0 : static_cast<int64_t>(d.cuda_graph_max_bs) * 2 * kMiB;
  int64_t slack_used = req_to_token + graphs_estimate;
  if (!era.draft_weights_before_profile) slack_used += draft_weights;
  slack_used += draft_kv;

  if (explain) {
    r.figures.push_back({"gpus_per_replica", static_cast<double>(a.tp * a.pp), ""});
    r.figures.push_back({"page_size", static_cast<double>(page), ""});
    r.figures.push_back({"profiled_tokens", static_cast<double>(profiled), ""});
    r.figures.push_back({"max_num_reqs", static_cast<double>(max_num_reqs), ""});
    r.figures.push_back({"req_to_token_bytes", static_cast<double>(req_to_token), ""});
    r.figures.push_back({"chunked_prefill_size", static_cast<double>(d.chunked_prefill_size), ""});
    r.figures.push_back({"cuda_graph_max_bs", static_cast<double>(d.cuda_graph_max_bs), ""});
    if (!cell.mla && r.ok) {
      // The log's "K size": (tokens + page_size) * heads * head_dim * layers * elem / 2^30
      const double k = static_cast<double>(tokens + page) * cell.kv_heads_per_rank *
                       model.head_dim * cell.layers * cell.elem_bytes / static_cast<double>(kGiB);
      const double v = static_cast<double>(tokens + page) * cell.kv_heads_per_rank *
                       model.v_head_dim * cell.layers * cell.elem_bytes / static_cast<double>(kGiB);
      r.figures.push_back({"k_size_gib", k, ""});
      r.figures.push_back({"v_size_gib", v, ""});
    } else if (r.ok) {
      r.figures.push_back(
          {"kv_size_gib", static_cast<double>(kv_pool) / static_cast<double>(kGiB), ""});
    }
    if (cell.hybrid_swa && r.ok) {
      r.figures.push_back({"full_layer_tokens", static_cast<double>(tokens), ""});
      r.figures.push_back(
          {"swa_layer_tokens", std::floor(static_cast<double>(tokens) * cell.swa_ratio), ""});
    } else if (era.swa_mode == 1 && model.NumLayersOfKind(LayerKind::kSliding) > 0 && r.ok) {
      // model_runner.py set_num_token_hybrid (v0.5.x)
      const double ratio = a.swa_full_tokens_ratio.value_or(0.8);
      const double total = static_cast<double>(tokens) * model.num_layers;
      const double full = total / (ratio * model.NumLayersOfKind(LayerKind::kSliding) +
                                   model.NumLayersOfKind(LayerKind::kFull));
      r.figures.push_back({"full_layer_tokens", std::floor(full), ""});
      r.figures.push_back({"swa_layer_tokens", std::floor(full * ratio), ""});
    }
    r.figures.push_back({"draft_weights_bytes", static_cast<double>(draft_weights), ""});
    r.figures.push_back({"draft_kv_bytes", static_cast<double>(draft_kv), ""});
    r.figures.push_back({"slack_bytes", static_cast<double>(slack_bytes), ""});
    r.figures.push_back({"slack_used_estimate_bytes", static_cast<double>(slack_used), ""});
    stage("req_to_token pool",
          fmt::format("4 B * {} rows * (context {} + 4{}) (from the slack)", pool_rows, context_len,
                      draft_tokens_per_req ? fmt::format(" + {}", draft_tokens_per_req) : ""),
          req_to_token, "mem_cache/memory_pool.py ReqToTokenPool");
    if (r.ok && slack_used > slack_bytes) {
      r.warnings.push_back(fmt::format(
          "the slack pre_load_free * (1 - mem_fraction_static) = {} may not hold what is allocated "
          "after the KV pool (req_to_token {}, CUDA graphs ~{}{}): expect an out-of-memory error "
          "during CUDA-graph capture",
          Gib(slack_bytes), Gib(req_to_token), Gib(graphs_estimate),
          draft_kv + (era.draft_weights_before_profile ? 0 : draft_weights) > 0
              ? fmt::format(", draft {}",
                            Gib(draft_kv + (era.draft_weights_before_profile ? 0 : draft_weights)))
              : ""));
    }
    // The bar: one GPU's memory, in allocation order.
    const int64_t overhead = gpu.total_bytes - pre_bytes;
    r.memory.push_back({"CUDA context + communicators", overhead});
    r.memory.push_back({"weights", weights});
    if (era.draft_weights_before_profile && draft_weights > 0) {
      r.memory.push_back({"draft weights", draft_weights});
    }
    if (r.ok) {
      r.memory.push_back({"KV cache", kv_pool});
      if (draft_kv > 0) r.memory.push_back({"draft KV cache", draft_kv});
      if (!era.draft_weights_before_profile && draft_weights > 0) {
        r.memory.push_back({"draft weights", draft_weights});
      }
      r.memory.push_back({"req_to_token pool", req_to_token});
      r.memory.push_back({"CUDA graphs + activations (rest of slack)",
                          std::max<int64_t>(0, slack_bytes - req_to_token - draft_kv)});
    }
    if (!measured.gpu_capacity_mib && gpu.capacity_mib == 0) {
      r.warnings.push_back("GPU capacity unknown: SGLang falls back to mem_fraction_static 0.88");
    }
  }
  if (opts.fixes) SglangAddFixes(version, model, gpu, args_in, measured, draft, &r);
  return r;
}

}  // namespace kvplan
