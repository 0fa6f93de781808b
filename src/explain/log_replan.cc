#include "explain/log_replan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iterator>

#include <fmt/core.h>

#include "base/text.h"
#include "base/units.h"
#include "engines/sglang/weight_loading.h"
#include "explain/log_sglang_args.h"
#include "explain/logged_gpu.h"
#include "explain/sglang_fraction.h"
#include "explain/stand_in_model.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Bytes per token per rank of one of K/V from a "K size: x GB" figure of a pool
// holding tokens + page_size slots. The true value is heads*head_dim*layers*elem,
// a multiple of 64 for every real model: snap to it when the 2-decimal rounding
// of the log leaves less than 32 bytes of doubt.
int64_t PerTokenFromSize(double gib, double slots, int64_t* uncertainty) {
  double per = gib * static_cast<double>(kGiB) / slots;
  double doubt = 0.005 * static_cast<double>(kGiB) / slots;
  if (!(per > 0 && per < 1e12)) {  // a garbled KV line: no usable size
    *uncertainty = 0;
    return 0;
  }
  int64_t snapped = static_cast<int64_t>(std::llround(per / 64.0)) * 64;
  if (doubt < 32 && std::fabs(static_cast<double>(snapped) - per) <= doubt) {
    *uncertainty = 0;
    return snapped;
  }
  *uncertainty = static_cast<int64_t>(std::ceil(doubt));
  return static_cast<int64_t>(std::llround(per));
}

// The KV bytes per token per rank the log's KV line implies (0 when none).
void CellFromLog(const RunRecord& run, int64_t page, SglangReplanInputs* in) {
  std::optional<double> tokens = run.Figure("kv_tokens");
  std::optional<double> k = run.Figure("k_size_gib"), v = run.Figure("v_size_gib");
  std::optional<double> kv = run.Figure("kv_size_gib");
  if (!tokens || *tokens <= 0 || !((k && v) || kv)) return;
  double slots = *tokens + static_cast<double>(page);
  int64_t uk = 0, uv = 0;
  int64_t cell = kv ? PerTokenFromSize(*kv, slots, &uk)
                    : PerTokenFromSize(*k, slots, &uk) + PerTokenFromSize(*v, slots, &uv);
  in->log_cell_bytes = std::max<int64_t>(cell, 0);
  in->log_cell_uncertainty = uk + uv;
}

// When the model is not in the catalog: a stand-in carrying the log's cell,
// so PlanSglang still does the arithmetic. Needs the log's KV line.
bool UseStandIn(const RunRecord& run, SglangReplanInputs* in) {
  if (in->log_cell_bytes <= 0) return false;
  std::string kv = in->args.kv_cache_dtype == "auto" ? run.kv_dtype : in->args.kv_cache_dtype;
  int elem = kv.find("fp8") != std::string::npos || kv.find("float8") != std::string::npos ? 1
             : run.dtype.find("float32") != std::string::npos                              ? 4
                                                                                           : 2;
  const SglangArgs& a = in->args;
  int attn_tp = a.enable_dp_attention && a.dp > 0 ? std::max(1, a.tp / a.dp) : a.tp;
  if (!StandInCanCarry(in->log_cell_bytes, elem, attn_tp)) return false;
  std::string id = run.model.empty() ? "(model from the log)" : run.model;
  in->model =
      StandInModel(id, in->log_cell_bytes, elem, attn_tp, a.pp, a.context_length.value_or(32768));
  in->notes.push_back(fmt::format(
      "model {} is not in kvplan's catalog: the cell size is the log's KV line ({} B per token "
      "per rank), the context length {}",
      id, in->log_cell_bytes,
      a.context_length ? "as printed" : "assumed 32768 (it sets only the request pool)"));
  return true;
}

// The KV geometry a cell is made of (what a re-plan reads from the model once the
// weights are measured).
bool SameKvGeometry(const ModelSpec& a, const ModelSpec& b) {
  bool common = a.attention == b.attention && a.num_layers == b.num_layers &&
                a.layer_kinds == b.layer_kinds && a.sliding_window == b.sliding_window &&
                a.torch_dtype == b.torch_dtype && a.index_head_dim == b.index_head_dim &&
                a.compress_ratios == b.compress_ratios;  // DeepSeek-V4's c4 / c128 layers
  if (!common) return false;
  // MLA caches one latent per token, whatever the head count.
  if (a.attention == AttentionKind::kMla) {
    return a.kv_lora_rank == b.kv_lora_rank && a.qk_rope_head_dim == b.qk_rope_head_dim;
  }
  return a.num_kv_heads == b.num_kv_heads && a.head_dim == b.head_dim &&
         a.v_head_dim == b.v_head_dim;
}

// A log with no model path still names the class (type=DeepseekV3ForCausalLM): when
// every catalog model of that class has one KV geometry, the cell is known.
bool ModelOfClass(const RunRecord& run, SglangReplanInputs* in) {
  if (run.model_class.empty()) return false;
  std::vector<const ModelSpec*> same;
  for (const ModelSpec& m : CatalogModels()) {
    if (m.architecture != run.model_class) continue;
    if (!same.empty() && !SameKvGeometry(*same.front(), m)) return false;
    same.push_back(&m);
  }
  if (same.empty()) return false;
  std::string ids;
  for (const ModelSpec* m : same) ids += (ids.empty() ? "" : ", ") + m->id;
  in->model = *same.front();
  in->notes.push_back(fmt::format(
      "model: the log names only the class {}; kvplan's catalog models of that class ({}) "
      "share one KV geometry, so the cell is {}'s (the weights are measured)",
      run.model_class, ids, in->model.id));
  return true;
}

void ModelOf(const RunRecord& run, SglangReplanInputs* in, std::string* why) {
  try {
    in->model = LoadModel(run.model);
    in->notes.push_back("model " + in->model.id + " from kvplan's catalog");
  } catch (const std::exception& e) {
    if (!UseStandIn(run, in) && !(run.model.empty() && ModelOfClass(run, in))) {
      *why = fmt::format(
          "no model: '{}' is not in kvplan's catalog and the log has no KV line to size a "
          "stand-in ({}; kvplan plan --model CONFIG.json supplies it)",
          run.model, e.what());
      return;
    }
  }
  const std::string& draft = in->args.speculative_draft_model_path;
  if (draft.empty()) return;
  try {
    in->draft = LoadModel(draft);
  } catch (const std::exception&) {
    in->notes.push_back("draft model " + draft + " is not in kvplan's catalog: planned without it");
  }
}

// The catalog GPU of `capacity_mib` when every entry of that capacity has the same
// compute capability (what the planner reads besides the measured memory); else nullptr.
const GpuSpec* CatalogGpuOfCapacity(int64_t capacity_mib) {
  const GpuSpec* found = nullptr;
  for (const GpuSpec& g : GpuCatalog()) {
    if (g.capacity_mib != capacity_mib) continue;
    if (found != nullptr && found->compute_capability != g.compute_capability) return nullptr;
    if (found == nullptr) found = &g;
  }
  return found;
}

void GpuOf(const RunRecord& run, SglangReplanInputs* in) {
  if (run.gpu_capacity_mib > 0) in->measured.gpu_capacity_mib = run.gpu_capacity_mib;
  std::string note;
  const GpuSpec* inferred = run.gpu_name.empty() && in->inferred_capacity_mib > 0
                                ? CatalogGpuOfCapacity(in->inferred_capacity_mib)
                                : nullptr;
  if (inferred != nullptr) {
    // The log names no GPU, but the default rule that gives its fraction matched at this
    // capacity: the planner gets that card's compute capability (backend, page size).
    in->gpu = *inferred;
    in->notes.push_back(fmt::format(
        "GPU {} inferred from the figures (its {} MiB is the capacity at which the default rule "
        "gives the fraction; the log names no GPU)",
        inferred->name, inferred->capacity_mib));
    return;
  }
  in->gpu = LoggedGpu(run, *in->measured.pre_load_free_bytes, "the pre-load free memory", &note);
  in->notes.push_back(note);
}

std::optional<double> ParseDouble(const std::string& s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

int64_t PositiveInt(const std::string& flag, const std::string& value) {
  std::optional<double> num = ParseDouble(value);
  if (!num || *num < 1 || *num > 1e15 || *num != std::floor(*num))
    throw InputError(fmt::format("--set {}={}: expected a positive integer", flag, value));
  return static_cast<int64_t>(*num);
}

}  // namespace

std::string SettingKey(const std::string& flag) {
  std::string key = flag;
  while (!key.empty() && key[0] == '-') key.erase(0, 1);
  for (char& c : key) {
    if (c == '-') c = '_';
  }
  return key;
}

namespace {

// The free memory before and after loading (min over ranks, as the engine's
// distributed MIN gives); false with the missing figure named in `why`.
bool FreeMemoryOf(const RunRecord& run, SglangReplanInputs* in, std::string* why) {
  std::optional<double> pre = run.MinAvail(kStageLoadWeightBegin);
  int ranks = run.RankCount(kStageLoadWeightBegin);
  in->pre_source = fmt::format("min over {} rank{} of \"Load weight begin. avail mem\"", ranks,
                               ranks == 1 ? "" : "s");
  std::optional<double> post = run.MinAvail(kStageLoadWeightEnd);
  int post_ranks = run.RankCount(kStageLoadWeightEnd);
  in->post_source = fmt::format("min over {} rank{} of \"Load weight end. avail mem\"", post_ranks,
                                post_ranks == 1 ? "" : "s");
  if (!pre && post) {
    // "Load weight end" also prints the usage: free before = free after + usage.
    if (std::optional<double> usage = run.MinUsage(kStageLoadWeightEnd)) {
      pre = *post + *usage;
      in->pre_derived = true;
      in->pre_source = fmt::format(
          "derived: post-load free + \"mem usage\" of Load weight end = {:.2f} + {:.2f} (no Load "
          "weight begin line)",
          *post, *usage);
    }
  }
  if (!post) {
    *why =
        "no post-load free memory: the log has no \"Load weight end. avail mem=\" line (kvplan "
        "plan --post-load-free-gib supplies it)";
    return false;
  }
  if (!pre) {
    *why =
        "no pre-load free memory: the log has neither a \"Load weight begin. avail mem=\" line "
        "nor the \"mem usage=\" of Load weight end (kvplan plan --pre-load-free-gib supplies it)";
    return false;
  }
  if (std::fabs(*pre) > 1e7 || std::fabs(*post) > 1e7) {  // more than 10 PiB of free memory
    *why = "the logged free memory is not plausible (garbled line?)";
    return false;
  }
  in->pre_gib = *pre;
  in->post_gib = *post;
  return true;
}

// The pool the log's KV line holds: its tokens x the cell its K/V sizes imply.
void PoolFromKvLine(const RunRecord& run, const SglangReplanInputs& in, SglangFractionInput* f) {
  std::optional<double> tokens = run.Figure("kv_tokens");
  // A garbled line (no free memory, an absurd pool) implies nothing.
  if (in.log_cell_bytes <= 0 || !tokens || in.pre_gib <= 0 || *tokens >= 1e12) return;
  double page = static_cast<double>(in.args.page_size.value_or(1));
  double cell = static_cast<double>(in.log_cell_bytes);
  // The pool is rest // cell rounded down to the page: rest lies within one page above it.
  f->kv_gib = (*tokens + page / 2) * cell / static_cast<double>(kGiB);
  f->kv_doubt_gib = (page / 2 * cell + *tokens * static_cast<double>(in.log_cell_uncertainty)) /
                    static_cast<double>(kGiB);
}

// Without K/V sizes: the logged tokens, or SGLang's "max_total_tokens=N is larger than the
// profiled value P" (P = int(rest // cell), negative when the weights leave less than the
// fraction's rest), times the model's cell as the planner computes it (any fraction gives
// the same cell).
void PoolFromModelCell(const RunRecord& run, const SglangReplanInputs& in, SglangFractionInput* f) {
  std::optional<double> tokens = run.Figure("kv_tokens");
  bool profiled = !tokens;
  if (profiled) tokens = run.Figure("profiled_max_total_num_tokens");
  if (f->kv_gib || !tokens || in.pre_gib <= 0 || !(std::fabs(*tokens) < 1e12)) return;
  SglangReplanInputs probe = in;
  probe.args.mem_fraction_static = 0.5;
  int64_t cell = ReplanSglang(probe).cell_bytes;
  if (cell <= 0) return;
  f->kv_gib = *tokens * static_cast<double>(cell) / static_cast<double>(kGiB);
  f->kv_doubt_gib = static_cast<double>(cell) / static_cast<double>(kGiB);
  f->pool = fmt::format("{} {} x cell {} B (the model's)", profiled ? "profiled value" : "#tokens",
                        WithThousands(std::llround(*tokens)), WithThousands(cell));
}

// The fraction: printed, or from the pool and the default rules (sglang_fraction.h).
bool FractionOf(const RunRecord& run, SglangReplanInputs* in, std::string* why) {
  SglangFractionInput f;
  f.pre_gib = in->pre_gib;
  f.post_gib = in->post_gib;
  f.pre_doubt_gib = in->pre_derived ? 0.01 : 0.005;
  PoolFromKvLine(run, *in, &f);
  PoolFromModelCell(run, *in, &f);
  std::optional<double> tokens = run.Figure("kv_tokens");
  SglangFraction mfs = SglangFractionOf(run, f);
  if (!mfs.value) {
    *why = tokens && !f.kv_gib && run.SettingNumber("mem_fraction_static") == std::nullopt
               ? fmt::format(
                     "no mem_fraction_static: the KV line and the free memory (pre "
                     "{:.2f} GiB, post {:.2f} GiB) imply none (a garbled figure?)",
                     in->pre_gib, in->post_gib)
               : mfs.how;
    return false;
  }
  if (!(*mfs.value > 0 && *mfs.value <= 1)) {  // also NaN
    *why = mfs.provenance == "measured"
               ? fmt::format("the logged mem_fraction_static {:g} is not a fraction", *mfs.value)
               : fmt::format(
                     "no mem_fraction_static: the one the KV line implies ({:g}) is not a "
                     "fraction (a garbled figure?)",
                     *mfs.value);
    return false;
  }
  in->args.mem_fraction_static = *mfs.value;  // the printed value, never the re-derived default
  in->mfs_provenance = mfs.provenance;
  in->mfs_source = mfs.how;
  in->mfs_from_kv_line = mfs.from_kv_line;
  in->inferred_capacity_mib = mfs.inferred_capacity_mib;
  return true;
}

}  // namespace

std::optional<SglangReplanInputs> SglangReplanInputsOf(const RunRecord& run, std::string* why) {
  SglangReplanInputs in;
  if (!FreeMemoryOf(run, &in, why)) return std::nullopt;
  // The rest memory of a hybrid linear-attention run holds the state pool beside the KV pool;
  // a re-plan that gave it all to KV would contradict the log.
  if (std::optional<double> slots = run.Figure("mamba_cache_slots")) {
    *why = fmt::format(
        "the log shows a Mamba state pool ({} request slots) beside the KV pool: kvplan does "
        "not re-plan the split of a logged hybrid linear-attention run (both pools are listed "
        "above)",
        WithThousands(std::llround(*slots)));
    return std::nullopt;
  }
  in.measured.pre_load_free_bytes = GiBToNearestBytes(in.pre_gib);
  in.measured.post_load_free_bytes = GiBToNearestBytes(in.post_gib);
  in.args = SglangArgsOfRun(run);
  CellFromLog(run, in.args.page_size.value_or(1), &in);
  std::string version_why;
  in.version = SglangReleaseOfRun(run, &version_why);
  in.notes.push_back(version_why);
  ModelOf(run, &in, why);
  if (!why->empty()) return std::nullopt;
  // The fraction may need the model's cell (a profiled value instead of a KV line).
  if (!FractionOf(run, &in, why)) return std::nullopt;
  GpuOf(run, &in);
  return in;
}

namespace {

// A block-fp8 sharding refusal (catalog/sharding.cc) for a run whose log shows the
// weights loaded: the build that ran did not refuse, so the KV budget is
// planned without that check. The weights are measured, not estimated, so the
// block sizes matter to nothing else.
bool LoadedDespiteBlockRefusal(const SglangReplanInputs& in, const PlanResult& r) {
  return !r.ok && r.stages.empty() && r.error_message.find("block_n") != std::string::npos &&
         in.measured.post_load_free_bytes.has_value();
}

}  // namespace

SglangReplanVerdict ReplanSglang(const SglangReplanInputs& in) {
  SglangReplanVerdict v;
  v.mfs = in.args.mem_fraction_static.value_or(0);
  v.page_size = in.args.page_size.value_or(1);
  SglangPlanOptions opts;
  opts.fixes = false;
  const ModelSpec* draft = in.draft ? &*in.draft : nullptr;
  PlanResult r;
  try {
    // --dtype and --quantization of the logged server_args as SGLang loads them (the verb's
    // request path applies the same rule: engines/sglang/request.cc).
    const ModelSpec model = ModelAsLaunched(in.model, SglangWeightLoading(in.args));
    r = PlanSglang(in.version, model, in.gpu, in.args, in.measured, draft, opts);
    if (LoadedDespiteBlockRefusal(in, r)) {
      v.notes.push_back(fmt::format(
          "kvplan's SGLang model refuses this sharding (\"{}\"), yet the log shows the weights "
          "loaded: the budget below skips that check",
          r.error_message));
      ModelSpec unblocked = model;
      unblocked.quant.block_n = unblocked.quant.block_k = 0;
      r = PlanSglang(in.version, unblocked, in.gpu, in.args, in.measured, draft, opts);
    }
  } catch (const InputError& e) {
    v.error = e.what();
    v.steps.push_back(std::string("SGLang refuses the launch: ") + e.what());
    return v;
  }
  for (const Stage& s : r.stages) {
    if (s.name == "pre_load_free" || s.name == "post_load_free") continue;
    v.steps.push_back(s.name + ": " + s.formula);
  }
  v.rest_gib = ToGiB(r.rest_memory_bytes);
  if (!r.stages.empty()) v.tokens = r.max_total_num_tokens;
  v.cell_bytes = r.cell_size_bytes;
  v.ok = r.ok;
  v.error = r.error_message;
  for (const Setting& s : r.settings) {
    if (s.flag == "--page-size") v.page_size = std::max<int64_t>(1, std::atoll(s.value.c_str()));
  }
  return v;
}

bool SglangSettingReplannable(const std::string& flag) {
  static const char* const keys[] = {
      "mem_fraction_static", "max_total_tokens",     "page_size",
      "kv_cache_dtype",      "max_running_requests", "context_length"};
  std::string key = SettingKey(flag);
  return std::any_of(std::begin(keys), std::end(keys), [&](const char* k) { return key == k; });
}

void ApplySglangSet(SglangReplanInputs* in, const std::string& flag, const std::string& value) {
  std::string key = SettingKey(flag);
  if (!SglangSettingReplannable(key)) {
    throw InputError(fmt::format(
        "--set {}: kvplan re-plans a logged SGLang run for mem_fraction_static, max_total_tokens, "
        "page_size, kv_cache_dtype, max_running_requests and context_length only (other flags "
        "change what the log measured)",
        flag));
  }
  SglangArgs& a = in->args;
  if (value == "None" && key != "mem_fraction_static") {  // back to the engine's default
    if (key == "kv_cache_dtype") a.kv_cache_dtype = "auto";
    if (key == "max_total_tokens") a.max_total_tokens.reset();
    if (key == "page_size") a.page_size.reset();
    if (key == "max_running_requests") a.max_running_requests.reset();
    if (key == "context_length") a.context_length.reset();
    return;
  }
  if (key == "mem_fraction_static") {
    std::optional<double> num = ParseDouble(value);
    if (!num || *num <= 0 || *num >= 1) {
      throw InputError(
          fmt::format("--set {}={}: expected a fraction between 0 and 1", flag, value));
    }
    a.mem_fraction_static = *num;
  } else if (key == "kv_cache_dtype") {
    if (value != "auto" && value != "bf16" && value != "bfloat16" && value != "fp16" &&
        value != "float16" && value != "fp8_e4m3" && value != "fp8_e5m2" && value != "fp8") {
      throw InputError(
          fmt::format("--set {}={}: expected auto, bf16, fp8_e4m3 or fp8_e5m2", flag, value));
    }
    a.kv_cache_dtype = value;
  } else {
    int64_t n = PositiveInt(flag, value);
    if (key == "max_total_tokens") a.max_total_tokens = n;
    if (key == "page_size") a.page_size = n;
    if (key == "max_running_requests") a.max_running_requests = n;
    if (key == "context_length") a.context_length = n;
  }
}

}  // namespace kvplan
