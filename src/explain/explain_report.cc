#include "explain/explain_report.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/core.h>

#include "base/text.h"
#include "base/units.h"
#include "explain/decode_prediction.h"
#include "explain/decode_report.h"
#include "explain/log_replan.h"
#include "explain/log_vllm_replan.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Settings shown first: the ones that shape memory.
const std::set<std::string>& MemoryKeys() {
  static const std::set<std::string> keys = {"mem_fraction_static",
                                             "gpu_memory_utilization",
                                             "tp_size",
                                             "tensor_parallel_size",
                                             "pp_size",
                                             "pipeline_parallel_size",
                                             "dp_size",
                                             "data_parallel_size",
                                             "ep_size",
                                             "enable_dp_attention",
                                             "kv_cache_dtype",
                                             "page_size",
                                             "context_length",
                                             "max_model_len",
                                             "max_running_requests",
                                             "max_num_seqs",
                                             "max_total_tokens",
                                             "chunked_prefill_size",
                                             "max_prefill_tokens",
                                             "max_num_batched_tokens",
                                             "cuda_graph_max_bs",
                                             "disable_cuda_graph",
                                             "enforce_eager",
                                             "quantization",
                                             "dtype",
                                             "speculative_algorithm",
                                             "speculative_num_draft_tokens",
                                             "cpu_offload_gb",
                                             "kv_cache_memory",
                                             "block_size",
                                             "enable_piecewise_cuda_graph",
                                             "attention_backend",
                                             "enable_expert_parallel"};
  return keys;
}

std::string StageLabel(const std::string& stage) {
  if (stage == kStageInitDistributed) return "init distributed (usage)";
  if (stage == kStageLoadWeightBegin) return "load weight begin";
  if (stage == kStageLoadWeightEnd) return "load weight end";
  if (stage == kStageKvAllocated) return "KV cache allocated";
  if (stage == kStageMemoryPoolEnd) return "memory pool end";
  if (stage == kStageGraphBegin) return "CUDA graph begin";
  if (stage == kStageGraphEnd) return "CUDA graph end";
  if (stage == kStageSummary) return "ready (summary line)";
  return stage;
}

std::string Gib(std::optional<double> v) { return v ? fmt::format("{:.2f}", *v) : "-"; }

void AppendHeader(const RunRecord& r, const std::string& path, int launches, std::string* out) {
  *out += fmt::format("{} (launch {} of {}, lines {}-{})\n", path, r.launch_index + 1, launches,
                      r.first_line, r.last_line);
  std::string engine = r.engine.empty() ? "unknown" : r.engine;
  if (!r.version.empty()) engine += " " + r.version;
  if (!r.era.empty()) engine += " (era: " + r.era + ")";
  *out += fmt::format("  engine   {}\n", engine);
  if (!r.model.empty()) {
    std::string cls = r.model_class.empty() ? "" : " (" + r.model_class;
    if (!cls.empty()) cls += r.dtype.empty() ? ")" : ", " + r.dtype + ")";
    *out += fmt::format("  model    {}{}\n", r.model, cls);
  }
  if (!r.gpu_name.empty() && r.gpu_count > 0) {
    *out += fmt::format("  GPU      {}x {}, {} MiB (nvidia-smi in the log)\n", r.gpu_count,
                        r.gpu_name, r.gpu_capacity_mib);
  } else if (!r.gpu_name.empty()) {
    *out += fmt::format("  GPU      {}, {} MiB (--gpu)\n", r.gpu_name, r.gpu_capacity_mib);
  }
  std::string outcome = r.outcome;
  if (r.outcome == "failed") outcome += ": " + r.error;
  *out += fmt::format("  outcome  {}\n", outcome);
}

void AppendSettings(const RunRecord& r, std::string* out) {
  std::string shown;
  for (const LoggedSetting& s : r.settings) {
    // The memory knobs, plus anything the user set; unset (None) engine defaults are noise.
    bool key = MemoryKeys().count(s.key) > 0;
    if (!key || (s.provenance != "user" && s.value == "None")) continue;
    shown += fmt::format("  {:<26} {:<10} {:<8} {}\n", s.key, s.value.substr(0, 10), s.provenance,
                         s.rule);
  }
  if (shown.empty()) return;
  *out += "\nSettings that shape memory (value, provenance, why)\n" + shown;
  if (!r.settings_complete)
    *out += "  (the args line was cut or trimmed: some settings are missing)\n";
}

void AppendTimeline(const RunRecord& r, std::string* out) {
  if (r.timeline.empty()) return;
  *out += "\nMemory timeline (GiB; min and max over ranks)\n";
  *out += fmt::format("  {:<26} {:>8} {:>8} {:>8} {:>6}\n", "stage", "avail", "usage", "max avail",
                      "ranks");
  std::vector<std::string> order;
  for (const MemoryPoint& p : r.timeline) {
    if (std::find(order.begin(), order.end(), p.stage) == order.end()) order.push_back(p.stage);
  }
  for (const std::string& stage : order) {
    std::optional<double> max_avail;
    for (const MemoryPoint& p : r.timeline) {
      if (p.stage == stage && p.avail_gib && (!max_avail || *p.avail_gib > *max_avail)) {
        max_avail = p.avail_gib;
      }
    }
    *out +=
        fmt::format("  {:<26} {:>8} {:>8} {:>8} {:>6}\n", StageLabel(stage), Gib(r.MinAvail(stage)),
                    Gib(r.MinUsage(stage)), Gib(max_avail), r.RankCount(stage));
  }
}

// Checks the logged token count against the re-planned one, allowing for the
// 2-decimal rounding of the printed pre/post figures.
void AppendCheck(const RunRecord& r, const SglangReplanInputs& in, const SglangVerdict& v,
                 std::string* out) {
  std::optional<double> logged = r.Figure("kv_tokens");
  if (!logged || !v.tokens || v.cell_bytes <= 0) {
    if (r.outcome == "failed" && !v.ok) {
      *out += "  check: kvplan's model also fails this launch -> consistent with the log\n";
    } else if (r.outcome == "failed") {
      *out +=
          "  check: kvplan's model says this launch fits, but it failed: the failure is "
          "not the KV budget (see the error), or the log is from an era kvplan does not "
          "model\n";
    }
    return;
  }
  double doubt_gib = 0.005 + 0.005 * (1 - v.mfs);
  int64_t tol = static_cast<int64_t>(std::ceil(doubt_gib * static_cast<double>(kGiB) /
                                               static_cast<double>(v.cell_bytes))) +
                v.page_size;
  if (in.log_cell_uncertainty > 0) {
    tol += static_cast<int64_t>(std::ceil(*logged * static_cast<double>(in.log_cell_uncertainty) /
                                          static_cast<double>(v.cell_bytes)));
  }
  int64_t diff = static_cast<int64_t>(*logged) - *v.tokens;
  double kv_gib = *logged * static_cast<double>(v.cell_bytes) / static_cast<double>(kGiB);
  double implied = 1 - (in.post_gib - kv_gib) / in.pre_gib;
  *out += fmt::format(
      "  logged   #tokens: {} (KV pool {:.2f} GiB; implied mem_fraction_static {:.3f})\n",
      WithThousands(static_cast<int64_t>(*logged)), kv_gib, implied);
  if (std::llabs(diff) <= tol) {
    *out += fmt::format(
        "  check: matches kvplan's model (difference {} tokens, within the +-{} "
        "the log's 2-decimal rounding allows)\n",
        diff, tol);
  } else {
    *out += fmt::format(
        "  check: MISMATCH: kvplan's model gives {} tokens, the log {} (difference {}, more than "
        "+-{}). Either the log is from an era kvplan does not model (e.g. speculative decoding "
        "headroom, hybrid SWA/mamba pools, post-capture sizing) or kvplan is wrong.\n",
        WithThousands(*v.tokens), WithThousands(static_cast<int64_t>(*logged)), diff, tol);
  }
}

std::string VerdictLine(const SglangVerdict& v) {
  std::string tokens = v.tokens ? WithThousands(*v.tokens) + " KV tokens" : "KV tokens unknown";
  if (v.ok) return fmt::format("starts: rest_memory {:.2f} GiB, {}", v.rest_gib, tokens);
  return fmt::format("fails: rest_memory {:.2f} GiB -> \"{}\"", v.rest_gib, v.error);
}

void AppendSteps(const SglangVerdict& v, std::string* out) {
  for (const std::string& note : v.notes) *out += "  note     " + note + "\n";
  for (const std::string& step : v.steps) *out += "  " + step + "\n";
  if (v.tokens) {
    *out += fmt::format("  => rest_memory = {:.2f} GiB, max_total_num_tokens = {}\n", v.rest_gib,
                        WithThousands(*v.tokens));
  }
  *out += "  verdict: " + VerdictLine(v) + "\n";
}

void AppendSglang(const RunRecord& r, const ExplainOptions& o, std::string* out) {
  std::string why;
  std::optional<SglangReplanInputs> in = SglangReplanInputsOf(r, &why);
  *out += "\nKV budget re-planned from the log's measured memory (kvplan's SGLang model)\n";
  if (!in) {
    *out += "  not possible: " + why + "\n";
    if (!o.sets.empty()) throw InputError("--set needs the pre/post-load memory lines: " + why);
    return;
  }
  for (const std::string& note : in->notes) *out += "  input    " + note + "\n";
  *out += fmt::format("  pre      {:.2f} GiB  {}\n", in->pre_gib, in->pre_source);
  *out += fmt::format("  post     {:.2f} GiB  {}\n", in->post_gib, in->post_source);
  SglangVerdict v = ReplanSglang(*in);
  if (in->log_cell_bytes > 0) {
    *out +=
        fmt::format("  cell     {} B per token per rank in the log's KV line; {} B in the model\n",
                    WithThousands(in->log_cell_bytes), WithThousands(v.cell_bytes));
  } else if (v.cell_bytes > 0) {
    *out +=
        fmt::format("  cell     {} B per token per rank from the model (the log has no KV line)\n",
                    WithThousands(v.cell_bytes));
  }
  AppendSteps(v, out);
  AppendCheck(r, *in, v, out);
  if (o.sets.empty()) return;
  SglangReplanInputs changed = *in;
  std::string what;
  for (const auto& [flag, value] : o.sets) {
    ApplySglangSet(&changed, flag, value);
    what += (what.empty() ? "" : " ") + flag + "=" + value;
  }
  *out += fmt::format("\nWhat if {} (same measured memory)\n", what);
  AppendSteps(ReplanSglang(changed), out);
}

void AppendVllm(const RunRecord& r, const ExplainOptions& o, std::string* out) {
  *out += "\nKV budget from the log (vLLM)\n";
  for (const char* key : {"weights_gib", "weights_gb", "available_kv_cache_gib",
                          "gpu_kv_cache_tokens", "num_gpu_blocks", "max_concurrency",
                          "needed_kv_gib", "estimated_max_model_len", "cuda_graph_mem_gib"}) {
    if (std::optional<double> v = r.Figure(key)) *out += fmt::format("  {:<24} {:g}\n", key, *v);
  }
  // Bytes per KV token the log implies: the KV budget over the tokens it bought
  // (V1 prints tokens; V0 prints blocks of 16 tokens, its default block size).
  std::optional<double> kv_logged = r.Figure("available_kv_cache_gib");
  if (!kv_logged) kv_logged = r.Figure("kv_cache_size_gib");
  std::optional<double> tokens = r.Figure("gpu_kv_cache_tokens");
  if (!tokens && r.Figure("num_gpu_blocks")) tokens = *r.Figure("num_gpu_blocks") * 16;
  if (kv_logged && tokens && *tokens > 0) {
    *out += fmt::format(
        "  implied KV bytes per token (all layers, per rank): {:.0f} = {:.2f} GiB / {} tokens\n",
        *kv_logged * static_cast<double>(kGiB) / *tokens, *kv_logged,
        WithThousands(static_cast<int64_t>(*tokens)));
  }
  std::string why;
  std::optional<VllmReplanInputs> in = VllmReplanInputsOf(r, &why);
  if (!in) {
    *out += "  (not re-planned: " + why + ")\n";
    if (!o.sets.empty()) throw InputError("--set needs vLLM's memory profiling lines in the log");
    return;
  }
  *out += "\nKV budget re-planned from the log's measured terms (kvplan's vLLM model)\n";
  for (const std::string& note : in->notes) *out += "  input    " + note + "\n";
  VllmVerdict v = ReplanVllm(*in);
  for (const std::string& step : v.steps) *out += "  " + step + "\n";
  *out += fmt::format("  => kv = {:.2f} GiB (logged {:.2f})\n", v.kv_gib, in->logged_kv_gib);
  *out +=
      v.ok ? fmt::format("  verdict: starts, {} KV tokens\n", WithThousands(v.tokens.value_or(0)))
           : fmt::format("  verdict: fails: \"{}\"\n", v.error);
  *out += std::fabs(v.kv_gib - in->logged_kv_gib) <= 0.02
              ? "  check: matches kvplan's model (within the log's rounding)\n"
              : "  check: MISMATCH with kvplan's model: an era kvplan does not model, or kvplan "
                "is wrong\n";
  for (const auto& [flag, value] : o.sets) {
    VllmReplanInputs changed = *in;
    ApplyVllmSet(&changed, flag, value);
    VllmVerdict w = ReplanVllm(changed);
    *out += fmt::format("\nWhat if {}={}: kv = {:.2f} GiB ({:+.2f} GiB){}\n", flag, value, w.kv_gib,
                        w.kv_gib - v.kv_gib, w.ok ? "" : fmt::format(" -> fails: \"{}\"", w.error));
    if (w.tokens && *w.tokens > 0) {
      *out += fmt::format("  {} KV tokens", WithThousands(*w.tokens));
      if (std::optional<int64_t> len = changed.args.max_model_len) {
        *out += *w.tokens >= *len ? fmt::format(": enough for max_model_len {}", *len)
                                  : fmt::format(": still short of max_model_len {}", *len);
      }
      *out += "\n";
    }
  }
}

}  // namespace

std::pair<std::string, std::string> ParseSet(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw InputError("--set " + text + ": expected FLAG=VALUE, e.g. --mem-fraction-static=0.55");
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string ExplainText(const RunRecord& r, const std::string& path, int launches,
                        const ExplainOptions& o) {
  std::string out;
  AppendHeader(r, path, launches, &out);
  AppendSettings(r, &out);
  AppendTimeline(r, &out);
  if (r.engine == "sglang") AppendSglang(r, o, &out);
  if (r.engine == "vllm") AppendVllm(r, o, &out);
  AppendDecodeSection(r, &out);
  AppendDecodePrediction(r, &out);
  if (!r.notes.empty()) {
    out += "\nNotes\n";
    for (const std::string& n : r.notes) out += "  " + n + "\n";
  }
  if (!r.traceback.empty() && r.outcome == "failed") {
    out += fmt::format("\nTraceback (last lines of {})\n", r.traceback.size());
    size_t from = r.traceback.size() > 4 ? r.traceback.size() - 4 : 0;
    for (size_t i = from; i < r.traceback.size(); ++i) out += "  " + r.traceback[i] + "\n";
    out += "  " + r.error + "\n";
  }
  return out;
}

namespace {

nlohmann::json Tokens(std::optional<int64_t> t) { return t ? nlohmann::json(*t) : nullptr; }

void SglangJson(const RunRecord& r, const ExplainOptions& o, nlohmann::json* j) {
  std::string why;
  std::optional<SglangReplanInputs> b = SglangReplanInputsOf(r, &why);
  if (!b) {
    (*j)["replan_unavailable"] = why;
    return;
  }
  SglangVerdict v = ReplanSglang(*b);
  (*j)["replan"] = {{"sglang_version", b->version},
                    {"inputs", b->notes},
                    {"notes", v.notes},
                    {"pre_load_free_gib", b->pre_gib},
                    {"post_load_free_gib", b->post_gib},
                    {"mem_fraction_static", v.mfs},
                    {"cell_size_bytes", v.cell_bytes},
                    {"rest_memory_gib", v.rest_gib},
                    {"max_total_num_tokens", Tokens(v.tokens)},
                    {"ok", v.ok},
                    {"error", v.error},
                    {"steps", v.steps}};
  if (o.sets.empty()) return;
  SglangReplanInputs c = *b;
  for (const auto& [flag, value] : o.sets) ApplySglangSet(&c, flag, value);
  SglangVerdict w = ReplanSglang(c);
  (*j)["what_if"] = {{"sets", o.sets},
                     {"rest_memory_gib", w.rest_gib},
                     {"max_total_num_tokens", Tokens(w.tokens)},
                     {"ok", w.ok},
                     {"error", w.error}};
}

void VllmJson(const RunRecord& r, const ExplainOptions& o, nlohmann::json* j) {
  std::string why;
  std::optional<VllmReplanInputs> b = VllmReplanInputsOf(r, &why);
  if (!b) {
    (*j)["replan_unavailable"] = why;
    return;
  }
  VllmVerdict v = ReplanVllm(*b);
  (*j)["replan"] = {{"vllm_version", b->version},
                    {"inputs", b->notes},
                    {"kv_cache_gib", v.kv_gib},
                    {"logged_kv_cache_gib", b->logged_kv_gib},
                    {"kv_tokens", Tokens(v.tokens)},
                    {"ok", v.ok},
                    {"error", v.error},
                    {"steps", v.steps}};
  if (o.sets.empty()) return;
  VllmReplanInputs c = *b;
  for (const auto& [flag, value] : o.sets) ApplyVllmSet(&c, flag, value);
  VllmVerdict w = ReplanVllm(c);
  (*j)["what_if"] = {{"sets", o.sets},
                     {"kv_cache_gib", w.kv_gib},
                     {"kv_tokens", Tokens(w.tokens)},
                     {"ok", w.ok},
                     {"error", w.error}};
}

}  // namespace

nlohmann::json ExplainJson(const RunRecord& r, const ExplainOptions& o) {
  nlohmann::json j = {{"run", ToJson(r)}};
  if (r.engine == "sglang") SglangJson(r, o, &j);
  if (r.engine == "vllm") VllmJson(r, o, &j);
  return j;
}

}  // namespace kvplan
