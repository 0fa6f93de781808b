// The SGLang start-up pipeline common to every era: defaults, the two free
// memory measurements, rest_memory, cell size, max_total_num_tokens with its
// clamps in the engine's order, the request pool, and the failure messages.
// Where releases differ, the era (engines/sglang/era.h) decides.
#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "base/text.h"
#include "base/units.h"
#include "catalog/sharding.h"
#include "catalog/weights.h"
#include "engines/sglang/cell.h"
#include "engines/sglang/era.h"
#include "engines/sglang/fixes.h"
#include "engines/sglang/graph_estimate.h"
#include "engines/sglang/sglang.h"
#include "engines/sglang/speculative.h"
#include "kvplan/error.h"

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

// Page size: 1 unless the attention backend works in pages.
int64_t ResolvePageSize(const SglangArgs& a, const ModelSpec& model, const GpuSpec& gpu,
                        int64_t version, std::string* rule) {
  // server_args.py @v0.5.5: DeepSeek DSA/NSA forces 64-token pages on CUDA.
  if (model.index_head_dim > 0) {
    *rule = "DeepSeek DSA/NSA forces 64-token pages";
    return 64;
  }
  if (a.page_size) return *a.page_size;
  // server_args.py @v0.5.3 _handle_attention_backend_compatibility
  if (a.attention_backend == "flashmla" || a.attention_backend == "trtllm_mha" ||
      a.attention_backend == "trtllm_mla") {
    *rule = fmt::format("--attention-backend {} needs 64-token pages", a.attention_backend);
    return 64;
  }
  if (a.attention_backend == "cutlass_mla") {
    *rule = "--attention-backend cutlass_mla needs 128-token pages";
    return 128;
  }
  // server_args.py: on SM100 the default backend is trtllm_mla for DeepSeek V3/R1 and
  // trtllm_mha for GPT-OSS, both with 64-token pages (first release [inferred]: v0.5.3).
  if (a.attention_backend.empty() && gpu.compute_capability == 100 &&
      version >= SglangVersionKey(0, 5, 3) &&
      (model.architecture == "DeepseekV3ForCausalLM" ||
       model.architecture == "GptOssForCausalLM")) {
    *rule = fmt::format("SM100 default backend {} needs 64-token pages",
                        model.attention == AttentionKind::kMla ? "trtllm_mla" : "trtllm_mha");
    return 64;
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
  a.speculative_algorithm = ToUpper(a.speculative_algorithm);
  if (a.speculative_algorithm == "MTP") a.speculative_algorithm = "NEXTN";
  const bool spec = SglangHasDraft(a.speculative_algorithm);

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
  auto stage = [&](std::string name, std::string formula, int64_t bytes, std::string source,
                   std::string value = "") {
    if (explain) {
      r.stages.push_back(
          {std::move(name), std::move(formula), bytes, std::move(source), std::move(value)});
    }
  };
  auto warn = [&](std::string w) {
    if (explain) r.warnings.push_back(std::move(w));
  };
  if (vkey > SglangVersionKey(0, 5, 19) && vkey != SglangVersionKey(0, 5, 999)) {
    warn(fmt::format("SGLang {} is newer than the newest modelled release; main's rules are used",
                     version));
  }
  if (SglangEagleWithEagle3Draft(a.speculative_algorithm, draft)) {
    warn("--speculative-algorithm EAGLE with an EAGLE-3 draft (" + draft->architecture +
         "): SGLang does not capture the target's 3-layer hidden states, the draft's fc is "
         "skipped and no draft token is accepted (accept len 1.00, slower than no speculation; "
         "sglang PR #21272); use --speculative-algorithm EAGLE3");
  }
  if (a.enable_dp_attention && a.dp == 1) {
    // server_args.py @v0.5.3 _handle_data_parallelism: turned off with dp_size 1
    a.enable_dp_attention = false;
    warn("--enable-dp-attention with --dp-size 1 is turned off by SGLang");
  }
  {
    // Load-time sharding checks: the engine stops before any memory is planned.
    Parallelism par;
    par.tp = a.tp;
    par.pp = a.pp;
    par.dp = a.dp;
    par.ep = a.ep;
    par.dp_attention = a.enable_dp_attention;
    const std::vector<std::string> problems = ShardingProblems(model, par);
    if (!problems.empty()) {
      r.ok = false;
      r.error_message = problems.front();
      r.gpu_total_bytes = gpu.total_bytes;
      r.fraction = a.mem_fraction_static.value_or(0);
      r.fraction_user = a.mem_fraction_static.has_value();
      for (size_t i = 1; i < problems.size(); ++i) warn(problems[i]);
      if (opts.fixes) SglangAddShardingFixes(version, model, gpu, args_in, measured, draft, &r);
      return r;
    }
  }
  // server_args.py @v0.5.5: DeepSeek DSA picks an fp8 KV cache on SM100+ and bf16 below.
  std::string kv_rule = a.kv_cache_dtype == "auto"
                            ? fmt::format("auto: the model dtype ({})", model.torch_dtype)
                            : "";
  if (model.index_head_dim > 0 && a.kv_cache_dtype == "auto" && vkey >= SglangVersionKey(0, 5, 5)) {
    a.kv_cache_dtype = gpu.compute_capability >= 100 ? "fp8_e4m3" : "bfloat16";
    kv_rule = fmt::format("auto for DeepSeek DSA on compute capability {}", gpu.compute_capability);
  }

  // --- Defaults -----------------------------------------------------------
  SglangDefaultsInput in;
  in.version = vkey;
  in.explain = explain;
  in.args = &a;
  in.model = &model;
  in.gpu_mem_mib = measured.gpu_capacity_mib.value_or(gpu.capacity_mib);
  in.is_mla = model.attention == AttentionKind::kMla;
  in.speculative = spec;
  SglangDefaults d = era.defaults(in);
  double mfs = d.mem_fraction_static;
  std::string mfs_rule = d.mem_fraction_rule;
  // Before #7748 (v0.4.9) model_runner scaled even a user value by 0.9 for
  // multimodal models; later releases adjust only the automatic value.
  const bool scales_user_value = vkey < SglangVersionKey(0, 4, 9);
  if (model.multimodal && (scales_user_value || !a.mem_fraction_static)) {
    double factor = 0.90;
    if (vkey >= SglangVersionKey(0, 4, 10)) {
      // server_args.py adjust_mem_fraction_for_vlm (#6881): ViT-Large (24 x 1024) baseline
      const double layers = model.vision_layers > 0 ? model.vision_layers : 24;
      const double hidden = model.vision_hidden_size > 0 ? model.vision_hidden_size : 1024;
      const double complexity = layers * hidden * hidden / (24.0 * 1024 * 1024);
      factor = 0.95 * std::clamp(1.0 - 0.1 * (complexity - 1.0), 0.8, 1.05);
    }
    mfs *= factor;
    mfs_rule += fmt::format("{}multimodal model: * {:.4f}", mfs_rule.empty() ? "" : "; ", factor);
  }
  r.fraction = mfs;
  r.fraction_user = a.mem_fraction_static.has_value();
  if (explain)
    setting("--mem-fraction-static", fmt::format("{:.3f}", mfs), r.fraction_user, mfs_rule);
  // server_args.py _handle_data_parallelism: DP attention divides the chunk
  // (after the memory reserve was computed from the undivided value).
  int64_t chunked = d.chunked_prefill_size;
  std::string chunked_rule = d.chunked_prefill_rule;
  if (a.enable_dp_attention) {
    chunked /= a.dp;
    chunked_rule += fmt::format("{}divided by dp {} under DP attention",
                                chunked_rule.empty() ? "" : "; ", a.dp);
  }
  if (explain)
    setting("--chunked-prefill-size", std::to_string(chunked), a.chunked_prefill_size.has_value(),
            chunked_rule);
  if (era.swa_mode == 2 || d.piecewise_cuda_graph) {
    if (explain)
      setting("--enable-piecewise-cuda-graph", d.piecewise_cuda_graph ? "on" : "off",
              a.piecewise_cuda_graph.has_value(), d.piecewise_rule);
  }
  std::string page_rule;
  const int64_t page = ResolvePageSize(a, model, gpu, vkey, &page_rule);
  if (explain)
    setting("--page-size", std::to_string(page), a.page_size.has_value() && page == *a.page_size,
            page_rule);
  const int64_t context_len = a.context_length.value_or(model.max_position_embeddings);
  if (context_len <= 0) {
    throw InputError(
        fmt::format("model {} has no max_position_embeddings; pass --context-length", model.id));
  }
  r.context_length = context_len;
  if (explain)
    setting("--context-length", std::to_string(context_len), a.context_length.has_value(),
            "max_position_embeddings of the model config");
  if (a.context_length && model.max_position_embeddings > 0 &&
      *a.context_length > model.max_position_embeddings) {
    warn(fmt::format(
        "--context-length {} exceeds the model's max_position_embeddings {}; SGLang refuses this "
        "unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1",
        *a.context_length, model.max_position_embeddings));
  }
  if (explain)
    setting("--kv-cache-dtype", a.kv_cache_dtype, args_in.kv_cache_dtype != "auto", kv_rule);
  SglangSpecParams sp;
  if (spec) {
    sp = SglangSpeculativeParams(vkey, model, a);
    if (explain)
      setting("--speculative-num-steps", std::to_string(sp.steps),
              a.speculative_num_steps.has_value(), sp.rule);
    if (explain)
      setting("--speculative-eagle-topk", std::to_string(sp.topk),
              a.speculative_eagle_topk.has_value(), sp.rule);
    if (explain)
      setting("--speculative-num-draft-tokens", std::to_string(sp.draft_tokens),
              a.speculative_num_draft_tokens.has_value() &&
                  *a.speculative_num_draft_tokens == sp.draft_tokens,
              sp.rule);
  }

  // --- Free memory before and after loading -------------------------------
  const int world = a.tp * a.pp * (a.enable_dp_attention ? 1 : a.dp);
  r.gpu_total_bytes = gpu.total_bytes;
  int64_t pre_bytes = 0;
  if (measured.pre_load_free_bytes) {
    pre_bytes = *measured.pre_load_free_bytes;
    if (explain) stage("pre_load_free", "measured", pre_bytes, "given");
  } else {
    const int64_t overhead = EstimatedStartupOverhead(gpu, a.tp * a.pp);
    pre_bytes = gpu.total_bytes - overhead;
    if (explain)
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
  int64_t weights = EstimateWeights(model, par).bytes_per_rank;
  const int64_t draft_weights =
      spec && draft != nullptr ? EstimateWeights(*draft, par).bytes_per_rank : 0;
  int64_t post_bytes = 0;
  if (measured.post_load_free_bytes) {
    post_bytes = *measured.post_load_free_bytes;
    weights = pre_bytes - post_bytes;
    if (explain) stage("post_load_free", "measured", post_bytes, "given");
  } else {
    post_bytes = pre_bytes - weights;
    std::string f =
        fmt::format("pre_load_free {} - weights per rank {}", Gib(pre_bytes), Gib(weights));
    if (era.draft_weights_before_profile && draft_weights > 0) {
      post_bytes -= draft_weights;
      f += fmt::format(" - draft weights {} (#28855: loaded before profiling)", Gib(draft_weights));
    }
    if (explain) stage("post_load_free", f, post_bytes, "model_runner.py load_model");
  }
  r.pre_load_free_bytes = pre_bytes;
  r.post_load_free_bytes = post_bytes;
  r.weights_bytes_per_gpu = weights;

  // --- rest_memory (GiB floats, as the engine computes it) ----------------
  // get_available_gpu_memory all-reduces a float32 tensor over the ranks.
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
  if (explain)
    stage("slack",
          fmt::format(
              "pre_load_free * (1 - mem_fraction_static) = {:.3f} * (1 - {:.3f}) = {:.3f} GiB",
              pre_gib, mfs, slack_gib),
          GiBToBytes(slack_gib), era.source);
  if (explain)
    stage("rest_memory",
          fmt::format("post_load_free - slack = {:.3f} - {:.3f} = {:.3f} GiB", post_gib, slack_gib,
                      rest_gib),
          rest_bytes, "model_runner.py profile_max_num_token");

  // --- Cell size and tokens -------------------------------------------------
  const SglangCell cell = SglangCellSize(era, vkey, model, a, draft, explain);
  r.cell_size_bytes = cell.bytes;
  if (explain)
    stage("cell_size", cell.formula, 0, "model_runner.py profile_max_num_token: cell_size",
          fmt::format("{} B/token", WithThousands(cell.bytes)));

  auto fail = [&](std::string message) {
    r.ok = false;
    r.error_message = std::move(message);
  };
  r.ok = true;
  if (era.rest_memory_error && rest_gib <= 0) {
    // kv_cache_configurator.py @main 2026-08 (#28855): ValueError on rest_memory <= 0
    const double minimum = 1 - post_gib / pre_gib;
    const double suggested = std::ceil(minimum * 1000) / 1000;
    fail(fmt::format(
        "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static={}. "
        "Raise --mem-fraction-static above {:.3f} (minimum viable = 1 - available/pre = {:.4f}). "
        "If using speculative decoding, draft weights are now counted.",
        mfs, suggested, minimum));
  }
  int64_t tokens = 0;
  if (cell.hybrid_mode == 2) {
    tokens =
        static_cast<int64_t>(std::floor(static_cast<double>(rest_bytes) / cell.hybrid_divisor));
  } else {
    tokens = FloorDiv(rest_bytes, cell.bytes);
  }
  const int64_t profiled = tokens;
  if (explain)
    stage("profiled tokens",
          fmt::format("int(rest_memory * 2^30) // cell_size = {} // {} = {}", rest_bytes,
                      cell.bytes, tokens),
          0, "model_runner.py profile_max_num_token",
          fmt::format("{} tokens", WithThousands(tokens)));

  // --- Request pool size (max_num_reqs) ------------------------------------
  // server_args.py (#4908): speculative decoding sets max_running_requests to
  // 48, which the engine then treats as if the user had given it.
  std::optional<int64_t> user_reqs = a.max_running_requests;
  std::string reqs_rule = user_reqs ? "user" : "";
  if (!user_reqs && spec) {
    user_reqs = 48;
    reqs_rule = "reset to 48 for speculative decoding";
  }
  const int64_t attn_dp = a.enable_dp_attention ? a.dp : 1;
  int64_t max_num_reqs = 0;
  if (user_reqs) {
    max_num_reqs = *user_reqs;
  } else {
    // model_runner.py: min(max(int(tokens / context_len * 512), 2048), 4096)
    max_num_reqs = std::min<int64_t>(
        std::max<int64_t>(TruncToInt64(static_cast<double>(tokens) / context_len * 512), 2048),
        4096);
    reqs_rule = fmt::format("min(max(int({} / {} * 512), 2048), 4096)", tokens, context_len);
  }

  // --- Clamps in the engine's order ----------------------------------------
  if (spec && era.spec_token_headroom) {
    // model_runner.py @v0.5.3 init_memory_pool: draft_runner_cache_size (#15748 removed it)
    const int64_t headroom =
        max_num_reqs * sp.steps * sp.topk + max_num_reqs * sp.draft_tokens + 100;
    tokens += headroom;
    if (explain)
      stage("speculative headroom",
            fmt::format("+ {} * {} * {} + {} * {} + 100 = +{} tokens", max_num_reqs, sp.steps,
                        sp.topk, max_num_reqs, sp.draft_tokens, headroom),
            0, "model_runner.py init_memory_pool @v0.5.3", fmt::format("+{} tokens", headroom));
  }
  if (a.max_total_tokens) {
    if (*a.max_total_tokens > tokens) {
      warn(
          fmt::format("max_total_tokens={} is larger than the profiled value {}. Use the profiled "
                      "value instead.",
                      *a.max_total_tokens, tokens));
    }
    tokens = std::min(tokens, *a.max_total_tokens);
  }
  tokens = FloorDiv(tokens, page) * page;
  int64_t swa_tokens = -1;
  if (cell.hybrid_mode == 1) {
    // model_runner.py set_num_token_hybrid (v0.5.x): the all-layer count is
    // split; max_total_num_tokens becomes the full-layer count.
    const double total = static_cast<double>(tokens) * model.num_layers;
    const double full = total / (cell.swa_ratio * cell.n_swa + cell.n_full);
    tokens = FloorDiv(static_cast<int64_t>(full), page) * page;
    swa_tokens = FloorDiv(static_cast<int64_t>(full * cell.swa_ratio), page) * page;
  } else if (cell.hybrid_mode == 2) {
    swa_tokens =
        FloorDiv(static_cast<int64_t>(static_cast<double>(tokens) * cell.swa_ratio), page) * page;
  }
  if (explain)
    stage("max_total_num_tokens",
          fmt::format("min(profiled{}, --max-total-tokens) // page_size {} * page_size = {}",
                      era.spec_token_headroom && spec ? " + headroom" : "", page, tokens),
          0, "model_runner.py init_memory_pool", fmt::format("{} tokens", WithThousands(tokens)));
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
  int64_t pool_rows = 0;
  if (era.scheduler_min_pool) {
    // managers/tp_worker.py @v0.5.3: min(tokens // 2 or user // dp, req_to_token_pool.size)
    const int64_t want = user_reqs ? *user_reqs / attn_dp : tokens / 2;
    r.max_running_requests = std::min(want, max_num_reqs);
    pool_rows = max_num_reqs + era.req_to_token_extra_rows;
  } else {
    // kv_cache_configurator.py resolve_max_num_reqs (2026): per worker, the
    // pool holds one padding row more.
    const int64_t want = user_reqs ? *user_reqs / attn_dp : max_num_reqs;
    r.max_running_requests = std::min(want, tokens / 2);
    pool_rows = std::max<int64_t>(r.max_running_requests, 0) + era.req_to_token_extra_rows;
  }
  if (r.max_running_requests < 0) r.max_running_requests = 0;
  if (explain)
    setting("--max-running-requests", r.ok ? std::to_string(r.max_running_requests) : "not reached",
            a.max_running_requests.has_value(), reqs_rule);

  // --- Decode graphs: up to v0.5.2 the list stops at the pool size ----------
  int64_t graph_max_bs = a.disable_cuda_graph ? 0 : d.cuda_graph_max_bs;
  if (era.capture_clipped_to_pool && graph_max_bs > max_num_reqs) graph_max_bs = max_num_reqs;
  if (explain)
    setting(
        "--cuda-graph-max-bs", a.disable_cuda_graph ? "disabled" : std::to_string(graph_max_bs),
        a.cuda_graph_max_bs.has_value() || a.disable_cuda_graph,
        d.cuda_graph_rule + (graph_max_bs < d.cuda_graph_max_bs
                                 ? fmt::format("; clipped to the request pool ({})", max_num_reqs)
                                 : ""));

  // --- What comes out of the slack ------------------------------------------
  const int64_t draft_columns = spec && era.req_to_token_draft_columns ? sp.draft_tokens : 0;
  const int64_t req_to_token = 4 * pool_rows * (context_len + 4 + draft_columns);
  int64_t kv_pool = 0;
  if (r.ok) {
    kv_pool = (tokens + page) * cell.bytes;
    if (cell.hybrid_mode != 0) {
      const int64_t per_layer =
          int64_t{cell.kv_heads_per_rank} * (model.head_dim + model.v_head_dim) * cell.elem_bytes;
      kv_pool =
          (tokens + page) * per_layer * cell.n_full + (swa_tokens + page) * per_layer * cell.n_swa;
    }
  }
  int64_t draft_kv = 0;
  if (spec && !era.draft_kv_in_cell && draft != nullptr && r.ok) {
    SglangArgs da = a;
    da.speculative_algorithm.clear();
    const SglangCell dc = SglangCellSize(era, vkey, *draft, da, nullptr);
    draft_kv = (tokens + page) * dc.bytes;
  }
  const int64_t slack_bytes = GiBToBytes(slack_gib);
  // CUDA graphs: kvplan's fit, target plus draft (one shared graph pool).
  const SglangGraphEstimate graphs =
      EstimateSglangGraphs(model, draft, a, spec, sp, graph_max_bs, explain);
  int64_t slack_used = req_to_token + graphs.Total() + draft_kv;
  if (!era.draft_weights_before_profile) slack_used += draft_weights;

  if (explain) {
    r.figures.push_back({"gpus_per_replica", static_cast<double>(a.tp * a.pp), ""});
    r.figures.push_back({"page_size", static_cast<double>(page), ""});
    r.figures.push_back({"profiled_tokens", static_cast<double>(profiled), ""});
    r.figures.push_back({"max_num_reqs", static_cast<double>(max_num_reqs), ""});
    r.figures.push_back({"req_to_token_bytes", static_cast<double>(req_to_token), ""});
    r.figures.push_back({"chunked_prefill_size", static_cast<double>(chunked), ""});
    r.figures.push_back({"cuda_graph_max_bs", static_cast<double>(graph_max_bs), ""});
    if (spec) {
      r.figures.push_back({"speculative_num_steps", static_cast<double>(sp.steps), ""});
      r.figures.push_back({"speculative_eagle_topk", static_cast<double>(sp.topk), ""});
      r.figures.push_back(
          {"speculative_num_draft_tokens", static_cast<double>(sp.draft_tokens), ""});
    }
    if (r.ok && !cell.mla) {
      // The log's "K size": (tokens + page_size) * heads * head_dim * layers * elem / 2^30
      const int k_layers = cell.hybrid_mode != 0 ? cell.n_full : cell.layers;
      const double scale = static_cast<double>(tokens + page) * cell.kv_heads_per_rank * k_layers *
                           cell.elem_bytes / static_cast<double>(kGiB);
      r.figures.push_back({"k_size_gib", scale * model.head_dim, ""});
      r.figures.push_back({"v_size_gib", scale * model.v_head_dim, ""});
    } else if (r.ok) {
      r.figures.push_back(
          {"kv_size_gib", static_cast<double>(kv_pool) / static_cast<double>(kGiB), ""});
    }
    if (swa_tokens >= 0 && r.ok) {
      r.figures.push_back({"full_layer_tokens", static_cast<double>(tokens), ""});
      r.figures.push_back({"swa_layer_tokens", static_cast<double>(swa_tokens), ""});
    }
    r.figures.push_back({"draft_weights_bytes", static_cast<double>(draft_weights), ""});
    r.figures.push_back({"draft_kv_bytes", static_cast<double>(draft_kv), ""});
    r.figures.push_back({"slack_bytes", static_cast<double>(slack_bytes), ""});
    r.figures.push_back({"slack_used_estimate_bytes", static_cast<double>(slack_used), ""});
    r.figures.push_back({"cuda_graph_estimate_bytes", static_cast<double>(graphs.Total()), ""});
    if (spec) {
      r.figures.push_back(
          {"draft_graph_estimate_bytes", static_cast<double>(graphs.draft_bytes), ""});
    }
    if (explain)
      stage("req_to_token pool",
            fmt::format("4 B * {} rows * (context {} + 4{}) (from the slack)", pool_rows,
                        context_len, draft_columns ? fmt::format(" + {}", draft_columns) : ""),
            req_to_token, "mem_cache/memory_pool.py ReqToTokenPool");
    if (graphs.Total() > 0) {
      stage("CUDA graphs (estimate)", graphs.formula + " (from the slack)", graphs.Total(),
            "measured by the engine at capture (cuda_graph_runner.py); kvplan's fit");
    }
    if (r.ok && slack_used > slack_bytes) {
      warn(fmt::format(
          "the slack pre_load_free * (1 - mem_fraction_static) = {} may not hold what is allocated "
          "after the KV pool (req_to_token {}, CUDA graphs ~{} ({}), draft KV/weights {}): "
          "expect an out-of-memory error during CUDA-graph capture",
          Gib(slack_bytes), Gib(req_to_token), Gib(graphs.Total()),
          spec ? fmt::format("fitted: target {} + draft {}", Gib(graphs.target_bytes),
                             Gib(graphs.draft_bytes))
               : std::string("fitted"),
          Gib(draft_kv + (era.draft_weights_before_profile ? 0 : draft_weights))));
    }
    // The bar: one GPU's memory, in allocation order.
    r.memory.push_back({"CUDA context + communicators", gpu.total_bytes - pre_bytes});
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
      r.memory.push_back(
          {"CUDA graphs + activations (rest of slack)",
           std::max<int64_t>(0, slack_bytes - req_to_token - draft_kv -
                                    (era.draft_weights_before_profile ? 0 : draft_weights))});
    }
    if (in.gpu_mem_mib == 0) {
      warn("GPU capacity unknown: SGLang falls back to mem_fraction_static 0.88");
    }
  }
  if (opts.fixes) SglangAddFixes(version, model, gpu, args_in, measured, draft, &r);
  return r;
}

}  // namespace kvplan
