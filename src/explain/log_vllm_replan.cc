#include "explain/log_vllm_replan.h"

#include <cmath>
#include <cstdlib>
#include <string_view>

#include <fmt/core.h>

#include "base/units.h"
#include "explain/log_replan.h"
#include "explain/logged_gpu.h"
#include "explain/stand_in_model.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

std::optional<int64_t> IntSetting(const RunRecord& r, const char* key) {
  std::optional<double> v = r.SettingNumber(key);
  if (!v || *v < 1 || *v > 1e12 || *v != std::floor(*v)) return std::nullopt;
  return static_cast<int64_t>(*v);
}

// A release the planner models for the log's era when the log prints none.
std::string ReleaseOf(const RunRecord& r, std::vector<std::string>* notes) {
  std::string release = !r.version.empty()                 ? r.version
                        : r.era.rfind("V0 (~v0.6", 0) == 0 ? "0.6.3"
                        : r.era.rfind("V0", 0) == 0        ? "0.7.0"
                                                           : "0.10.1";
  notes->push_back(r.version.empty() ? fmt::format("vLLM {} (representative of the log's era: {})",
                                                   release, r.era.empty() ? "unknown" : r.era)
                                     : "vLLM " + release + " (printed in the log)");
  return release;
}

// One line: the budget terms the log lacks and the `kvplan plan` flags that supply them.
std::string MissingBudgetLine(const RunRecord& r) {
  struct Term {
    const char* key;
    const char* name;
    const char* flag;
  };
  static const Term kTerms[] = {
      {"total_gpu_memory_gib", "total GPU memory", "--gpu G"},
      {"gpu_memory_utilization", "gpu_memory_utilization", "--gpu-memory-utilization F"},
      {"weights_take_gib", "weights", "--measured weights=GIB"},
      {"activation_peak_gib", "activation peak", "--measured activation_peak=GIB"},
      {"non_torch_memory_gib", "non-torch memory", "--measured non_torch=GIB"}};
  std::string missing, flags;
  for (const Term& t : kTerms) {
    std::string_view key = t.key;
    bool have =
        r.Figure(t.key).has_value() ||
        (key == "gpu_memory_utilization" && r.SettingNumber(t.key).has_value()) ||
        (key == "weights_take_gib" && (r.Figure("weights_gib") || r.Figure("weights_gb"))) ||
        ((key == "weights_take_gib" || key == "non_torch_memory_gib") &&
         r.Figure("consumed_memory_gib"));
    if (have) continue;
    missing += (missing.empty() ? "" : ", ") + std::string(t.name);
    flags += std::string(" ") + t.flag;
  }
  std::string where = r.era.rfind("V0", 0) == 0 ? "the log's profiling lines are cut"
                      : r.era.rfind("V1", 0) == 0
                          ? "vLLM V1 prints its profiling breakdown only at DEBUG level "
                            "(VLLM_LOGGING_LEVEL=DEBUG)"
                          : "the log holds no profiling breakdown (V0 prints it at INFO, "
                            "V1 only at DEBUG level: VLLM_LOGGING_LEVEL=DEBUG)";
  return fmt::format("no {}: {}; kvplan plan{} re-plans it by hand", missing, where, flags);
}

// V1 from ~v0.9.2 at DEBUG level (gpu_worker.py determine_available_memory): the requested
// memory (total x utilization) and the non-KV terms of MemoryProfilingResult. The total is
// not printed: requested / utilization, with vLLM's default 0.9 when the log prints none.
bool V1DebugMeasuredOf(const RunRecord& r, VllmReplanInputs* in) {
  std::optional<double> requested = r.Figure("requested_memory_gib");
  std::optional<double> w = r.Figure("weights_memory_gib");
  std::optional<double> act = r.Figure("torch_peak_increase_gib");
  std::optional<double> nt = r.Figure("non_torch_increase_gib");
  std::optional<double> kv = r.Figure("available_kv_cache_gib");
  if (!requested || !w || !act || !nt || !kv) return false;
  std::optional<double> util = in->args.gpu_memory_utilization;
  if (!util) util = r.SettingNumber("gpu_memory_utilization");
  bool assumed = !util;
  in->args.gpu_memory_utilization = util.value_or(0.9);
  VllmMeasured& m = in->measured;
  m.total = GiBToNearestBytes(*requested / *in->args.gpu_memory_utilization);
  m.weights = GiBToNearestBytes(*w);
  m.activation_peak = GiBToNearestBytes(*act);
  m.non_torch = GiBToNearestBytes(*nt);
  if (std::optional<double> g = r.Figure("cuda_graph_estimate_gib"))
    m.cuda_graph = GiBToNearestBytes(*g);
  in->logged_kv_gib = *kv;
  in->notes.push_back(fmt::format(
      "total GPU memory derived: requested GPU memory {} GiB / gpu_memory_utilization {:g} ({}); "
      "weights, torch peak increase and non-torch increase from the DEBUG profiling line",
      *requested, *in->args.gpu_memory_utilization,
      assumed ? "vLLM's default, assumed: the log prints none" : "as printed"));
  return true;
}

}  // namespace

// V1 prints tokens; V0 and early V1 print blocks of 16 tokens, the default block size.
std::optional<double> LoggedKvTokens(const RunRecord& r) {
  if (std::optional<double> t = r.Figure("gpu_kv_cache_tokens")) return t;
  // Blocks of 16 tokens, vLLM's default block size, unless a hybrid model's log says it raised
  // the attention block size to match the Mamba page (vllm_lines.cc HybridBlockSize).
  if (std::optional<double> b = r.Figure("num_gpu_blocks")) {
    return *b * r.Figure("attention_block_size").value_or(16);
  }
  return std::nullopt;
}

namespace {

// A V1 log at INFO level prints the KV budget and the tokens it bought, not the budget's
// terms. With the model in the catalog the budget is taken as measured and the re-plan
// checks the cell and block arithmetic against the logged tokens.
bool KvOnlyMeasuredOf(const RunRecord& r, VllmReplanInputs* in) {
  std::optional<double> kv = r.Figure("available_kv_cache_gib");
  std::optional<double> tokens = LoggedKvTokens(r);
  if (r.era.rfind("V0", 0) == 0 || !kv || !(*kv > 0 && *kv < 1e7) || !tokens) return false;
  try {
    LoadModel(r.model);
  } catch (const std::exception&) {  // a stand-in's cell would come from these same figures
    return false;
  }
  VllmMeasured& m = in->measured;
  m.available_kv = GiBToNearestBytes(*kv);
  // Nothing reads the total once the KV budget is given; the GPU stand-in needs one.
  m.total = GiBToNearestBytes(*kv / in->args.gpu_memory_utilization.value_or(0.9));
  in->logged_kv_gib = *kv;
  in->kv_only = true;
  in->notes.push_back(
      "KV budget measured (\"Available KV cache memory\"); its terms are not printed at INFO "
      "level, so the re-plan checks the cell and blocks against the logged tokens only");
  return true;
}

// The log's measured terms; false when it lacks the profiling lines.
bool MeasuredOf(const RunRecord& r, VllmReplanInputs* in, std::string* why) {
  std::optional<double> total = r.Figure("total_gpu_memory_gib");
  std::optional<double> util = in->args.gpu_memory_utilization;  // printed, else the setting
  if ((!total || !util) && (V1DebugMeasuredOf(r, in) || KvOnlyMeasuredOf(r, in))) return true;
  if (!total || !util) {
    *why = MissingBudgetLine(r);
    return false;
  }
  VllmMeasured& m = in->measured;
  m.total = GiBToNearestBytes(*total);
  // The start-up summary's "Free memory on device (30.27/31.4 GiB)": the free memory vLLM
  // checks the requested memory against, measured rather than estimated.
  if (std::optional<double> free = r.Figure("free_memory_on_startup_gib")) {
    m.pre_load_free = GiBToNearestBytes(*free);
  }
  m.non_torch = GiBToNearestBytes(r.Figure("non_torch_memory_gib").value_or(0));
  if (std::optional<double> peak = r.Figure("peak_torch_memory_gib")) {
    m.peak_torch = GiBToNearestBytes(*peak);  // ~v0.6.3: the torch peak includes the weights
    if (std::optional<double> w = r.Figure("weights_gb")) m.weights = GiBToNearestBytes(*w);
    in->logged_kv_gib = r.Figure("kv_cache_size_gib").value_or(0);
    return true;
  }
  std::optional<double> w = r.Figure("weights_take_gib");
  // The weights line, when the budget line names none ("GB" there is GiB too).
  if (!w) w = r.Figure("weights_gib");
  if (!w) w = r.Figure("weights_gb");
  // The 2026 start-up summary prints the weights and the non-torch memory as one term
  // ("15.03 GiB for consumed memory (weights + non-torch)"): the budget needs only their sum.
  if (std::optional<double> both = r.Figure("consumed_memory_gib"); !w && both) {
    w = both;
    m.non_torch = 0;
    in->notes.push_back(
        "weights and non-torch memory as one term: the log prints only their sum (\"GiB for "
        "consumed memory (weights + non-torch)\")");
  }
  std::optional<double> act = r.Figure("activation_peak_gib");
  std::optional<double> kv = r.Figure("available_kv_cache_gib");
  if (!w || !act) {
    *why = MissingBudgetLine(r);
    return false;
  }
  m.weights = GiBToNearestBytes(*w);
  m.activation_peak = GiBToNearestBytes(*act);
  // A log cut after the terms still re-plans; there is just nothing to check it against.
  in->kv_logged = kv.has_value();
  in->logged_kv_gib = kv.value_or(0);
  return true;
}

// The catalog model, else a stand-in: with the log's cell, or (no tokens) a nominal one.
void ModelOf(const RunRecord& r, VllmReplanInputs* in) {
  try {
    in->model = LoadModel(r.model);
    in->notes.push_back("model " + in->model.id + " from kvplan's catalog");
    return;
  } catch (const std::exception&) {
  }
  std::optional<double> tokens = LoggedKvTokens(r);
  const int64_t cell =
      tokens && *tokens > 0 && in->logged_kv_gib > 0
          ? std::llround(in->logged_kv_gib * static_cast<double>(kGiB) / *tokens / 64) * 64
          : 0;
  if (cell <= 0 || !StandInCanCarry(cell, 2, in->args.tp)) {
    // The budget sum needs no model: a nominal cell, and no tokens reported.
    in->budget_only = true;
    in->model = StandInModel(r.model.empty() ? "(no model)" : r.model, 512, 2, in->args.tp,
                             in->args.pp, in->args.max_model_len.value_or(2048));
    std::string which = r.model.empty() ? std::string("the log names no model")
                                        : fmt::format("'{}' is not in kvplan's catalog", r.model);
    in->notes.push_back(fmt::format(
        "no model: {} and the log gives no KV tokens: the budget sum only, no tokens (kvplan "
        "plan --model CONFIG.json supplies it)",
        which));
    return;
  }
  in->model = StandInModel(r.model, cell, 2, in->args.tp, in->args.pp,
                           in->args.max_model_len.value_or(32768));
  in->notes.push_back(fmt::format(
      "model {} is not in kvplan's catalog: {} B per token per rank from the log's KV budget "
      "and tokens",
      r.model, cell));
}

void GpuOf(const RunRecord& r, VllmReplanInputs* in) {
  std::string note;
  in->gpu = LoggedGpu(r, *in->measured.total,
                      in->kv_only ? "the KV budget / utilization (unused: the budget is the log's)"
                                  : "the logged total_gpu_memory",
                      &note);
  in->notes.push_back(note);
}

}  // namespace

VllmArgs VllmArgsOfRun(const RunRecord& r) {
  VllmArgs a;
  a.model = r.model;
  a.tp = static_cast<int>(IntSetting(r, "tensor_parallel_size").value_or(1));
  a.pp = static_cast<int>(IntSetting(r, "pipeline_parallel_size").value_or(1));
  // The profiler's printed figure, else the setting (an args line, non-default args, a command).
  a.gpu_memory_utilization = r.Figure("gpu_memory_utilization");
  if (!a.gpu_memory_utilization)
    a.gpu_memory_utilization = r.SettingNumber("gpu_memory_utilization");
  a.max_model_len = IntSetting(r, "max_model_len");
  if (!a.max_model_len) {
    if (std::optional<double> len = r.Figure("max_model_len")) a.max_model_len = *len;
  }
  a.max_num_seqs = IntSetting(r, "max_num_seqs");
  a.block_size = IntSetting(r, "block_size");
  const LoggedSetting* eager = r.FindSetting("enforce_eager");
  a.enforce_eager = eager != nullptr && eager->value == "True";
  const LoggedSetting* kv = r.FindSetting("kv_cache_dtype");
  if (kv != nullptr && kv->value != "None") a.kv_cache_dtype = kv->value;
  if (r.era.rfind("V0", 0) == 0) a.use_v1 = false;
  return a;
}

std::optional<VllmReplanInputs> VllmReplanInputsOf(const RunRecord& run, std::string* why) {
  VllmReplanInputs in;
  in.args = VllmArgsOfRun(run);
  if (!MeasuredOf(run, &in, why)) return std::nullopt;
  in.version = ReleaseOf(run, &in.notes);
  if (!run.LoggedTp()) {
    in.notes.push_back(
        "tensor_parallel_size taken as 1: the log names no TP (no args line, launch command, "
        "engine config line or rank tag); the per-GPU figures hold for one GPU only");
  }
  ModelOf(run, &in);
  GpuOf(run, &in);
  return in;
}

VllmReplanVerdict ReplanVllm(const VllmReplanInputs& in) {
  VllmReplanVerdict v;
  PlanResult r;
  try {
    r = PlanVllm(in.version, in.model, in.gpu, in.args, in.measured);
  } catch (const InputError& e) {
    v.error = e.what();
    v.steps.push_back(std::string("vLLM refuses the launch: ") + e.what());
    return v;
  }
  for (const Stage& s : r.stages) {
    // Without a model the stages after the budget (blocks, tokens) mean nothing.
    bool after_budget = s.name == "needed_for_one_request" || s.name == "kv_cache";
    if (in.budget_only && after_budget) continue;
    // With the budget taken from the log, the planner's budget stages describe nothing.
    if (in.kv_only && !after_budget) continue;
    v.steps.push_back(s.name + ": " + s.formula);
  }
  v.kv_gib = ToGiB(r.rest_memory_bytes);
  v.budget_only = in.budget_only;
  if (in.budget_only) {
    v.ok = r.rest_memory_bytes > 0;
    return v;
  }
  v.tokens = r.max_total_num_tokens;
  v.ok = r.ok;
  v.error = r.error_message;
  v.fixes = r.fixes;
  return v;
}

void ApplyVllmSet(VllmReplanInputs* in, const std::string& flag, const std::string& value) {
  if (in->kv_only) {
    throw InputError("--set " + flag +
                     ": the log prints the KV budget but not its terms (total, weights, "
                     "activation peak, non-torch), so a changed setting cannot be re-planned");
  }
  if (SettingKey(flag) != "gpu_memory_utilization") {
    throw InputError("--set " + flag +
                     ": for a vLLM log kvplan re-plans gpu_memory_utilization only");
  }
  char* end = nullptr;
  double util = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || *end != '\0' || !(util > 0 && util <= 1)) {
    throw InputError("--set " + flag + "=" + value + ": expected a fraction in (0, 1]");
  }
  in->args.gpu_memory_utilization = util;
}

}  // namespace kvplan
