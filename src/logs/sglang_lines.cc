#include "logs/sglang_lines.h"

#include <string>

#include <fmt/core.h>

#include "logs/py_repr.h"
#include "logs/text_scan.h"

namespace kvplan {
namespace {

// Eras by line format (sglang-memory.md §4).
constexpr std::string_view kEra2026 = "2026 (elapsed= in the load/init lines)";
constexpr std::string_view kEraV046 = "v0.4.6 or older (graph end prints avail before usage)";
constexpr std::string_view kEraV05 = "v0.4.7-v0.5.x (type=, dtype= in Load weight end)";
// v0.4.6 on print "mem usage=" in Load weight end (sglang-memory.md §4); an older one does not.
constexpr std::string_view kEraPreV046 = "v0.4.5 or older (no mem usage= in Load weight end)";

std::string Text(std::string_view s) { return std::string(s); }

// "type=Qwen3ForCausalLM, " -> "Qwen3ForCausalLM".
std::string_view FieldValue(std::string_view msg, std::string_view key) {
  size_t at = msg.find(key);
  if (at == std::string_view::npos) return {};
  std::string_view rest = msg.substr(at + key.size());
  size_t end = rest.find(',');
  return rest.substr(0, end);
}

void LoadWeightEnd(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  // 2026 prints elapsed= and, when quantized, a quant= string; before v0.4.6 there is no
  // mem usage=.
  if (Contains(msg, "elapsed=")) {
    b.SetEra(kEra2026);
  } else if (Contains(msg, "quant=")) {
    b.SetEra("2026 (quant= in Load weight end)");
  } else {
    b.SetEra(Contains(msg, "mem usage=") ? kEraV05 : kEraPreV046);
  }
  RunRecord& r = b.run();
  if (r.model_class.empty()) r.model_class = Text(FieldValue(msg, "type="));
  if (r.dtype.empty()) r.dtype = Text(FieldValue(msg, "dtype="));
  b.AddPoint(kStageLoadWeightEnd, NumberAfter(msg, "avail mem="), NumberAfter(msg, "mem usage="));
}

void KvAllocated(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  if (Contains(msg, "dtype: ")) {
    b.SetEra("2026-05 or newer (dtype: in the KV line)");
    RunRecord& r = b.run();
    if (r.kv_dtype.empty()) r.kv_dtype = Text(FieldValue(msg, "dtype: "));
  }
  std::optional<int64_t> tokens = IntegerAfter(msg, "#tokens: ");
  // A sliding-window model allocates two pools, each with its own KV line (SWAKVPool in
  // mem_cache/swa_memory_pool.py): the one the size of swa_layer_tokens is the SWA pool, never
  // the run's KV size, which is the full pool (max_total_num_tokens counts full-layer tokens).
  const RunRecord& r = b.run();
  std::optional<double> swa = r.Figure("swa_layer_tokens"), full = r.Figure("full_layer_tokens");
  std::string pool =
      tokens && swa && full && *swa != *full && static_cast<double>(*tokens) == *swa ? "swa_" : "";
  if (tokens) b.SetFigure(pool + "kv_tokens", static_cast<double>(*tokens));
  if (auto k = NumberAfter(msg, "K size: ")) b.SetFigure(pool + "k_size_gib", *k);
  if (auto v = NumberAfter(msg, "V size: ")) b.SetFigure(pool + "v_size_gib", *v);
  if (Contains(msg, " KV size: ")) {
    if (auto kv = NumberAfter(msg, " KV size: ")) b.SetFigure("kv_size_gib", *kv);
  }
  b.AddPoint(kStageKvAllocated, std::nullopt, std::nullopt);
}

void GraphBegin(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  b.AddPoint(kStageGraphBegin, NumberAfter(msg, "avail mem="), std::nullopt);
  std::vector<int64_t> bs = IntListAfter(msg, "bs=");
  if (!bs.empty() && b.run().cuda_graph_bs.empty()) b.run().cuda_graph_bs = bs;
}

void GraphBatchSizes(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  std::vector<int64_t> bs = IntListAfter(msg, "Capture cuda graph bs");
  if (bs.empty() || !b.run().cuda_graph_bs.empty()) return;
  b.run().cuda_graph_bs = bs;
  b.SetFigure("cuda_graph_num_graphs", static_cast<double>(bs.size()));
  b.SetFigure("capture_bs_max", static_cast<double>(bs.back()));
}

void GraphEnd(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  size_t avail = msg.find("avail mem="), usage = msg.find("mem usage=");
  if (avail != std::string_view::npos && usage != std::string_view::npos && avail < usage &&
      Contains(msg, "Time elapsed")) {
    b.SetEra(kEraV046);
  }
  std::optional<double> t = NumberAfter(msg, "Time elapsed: ");
  if (!t) t = NumberAfter(msg, "elapsed=");
  if (t) b.SetFigure("cuda_graph_capture_time_s", *t);
  b.AddPoint(kStageGraphEnd, NumberAfter(msg, "avail mem="), NumberAfter(msg, "mem usage="));
}

// "max_total_num_tokens=605665, chunked_prefill_size=8192, ..., available_gpu_mem=12.11 GB"
void Summary(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  static constexpr std::string_view kKeys[] = {"max_total_num_tokens", "chunked_prefill_size",
                                               "max_prefill_tokens", "max_running_requests",
                                               "context_len"};
  for (std::string_view key : kKeys) {
    std::string k(key);
    if (auto v = NumberAfter(msg, k + "=")) b.SetFigure(k, *v);
  }
  std::optional<double> avail = NumberAfter(msg, "available_gpu_mem=");
  if (avail) b.SetFigure("available_gpu_mem_gib", *avail);
  b.AddPoint(kStageSummary, avail, std::nullopt);
  b.MarkReady();
}

bool MemoryFailure(std::string_view msg, RunBuilder& b) {
  if (Contains(msg, "Not enough memory. Please try to increase --mem-fraction-static") ||
      Contains(msg, "Loaded weights leave no GPU memory for the KV cache") ||
      Contains(msg, "The memory capacity is unbalanced")) {
    b.Fail(msg, FailureKind::kMemory);  // first: a relaunch's failure starts a new run
    b.SetEngine("sglang");
    if (Contains(msg, "Current value:")) b.SetEra("v0.5.3 or newer (Current value: in the error)");
    // The fraction the error names ("Current value: self.server_args.mem_fraction_static=0.2",
    // "under --mem-fraction-static=0.88"), as the engine printed it.
    std::optional<double> named = NumberAfter(msg, "mem_fraction_static=");
    if (!named) named = NumberAfter(msg, "--mem-fraction-static=");
    if (named) b.SetFigure("error_mem_fraction_static", *named);
    return true;
  }
  return false;
}

// "max_total_tokens=131072 is larger than the profiled value -561981. Use the profiled value
// instead." (model_runner.py, v0.4.x-v0.5.x): the pool the memory allows, negative when the
// weights leave less than the static fraction's rest.
void ProfiledValue(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  if (auto v = NumberAfter(msg, "max_total_tokens=")) b.SetFigure("max_total_tokens_arg", *v);
  if (auto v = NumberAfter(msg, "the profiled value ")) {
    b.SetFigure("profiled_max_total_num_tokens", *v);
  }
}

// "Mamba Cache is allocated. max_mamba_cache_size: 82, conv_state size: 0.13GB, ssm_state size:
// 7.29GB " and, with speculative decoding, "intermediate_ssm_state_cache size: ..GB
// intermediate_conv_window_cache size: ..GB" (mem_cache/memory_pool.py, hybrid linear-attention
// models): the state pool, in request slots and GiB, beside the KV pool.
void MambaAllocated(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  if (auto v = NumberAfter(msg, "max_mamba_cache_size: ")) b.SetFigure("mamba_cache_slots", *v);
  if (auto v = NumberAfter(msg, "conv_state size: ")) b.SetFigure("mamba_conv_state_gib", *v);
  if (auto v = NumberAfter(msg, " ssm_state size: ")) b.SetFigure("mamba_ssm_state_gib", *v);
  if (auto v = NumberAfter(msg, "intermediate_ssm_state_cache size: ")) {
    b.SetFigure("mamba_intermediate_ssm_gib", *v);
  }
  if (auto v = NumberAfter(msg, "intermediate_conv_window_cache size: ")) {
    b.SetFigure("mamba_intermediate_conv_gib", *v);
  }
}

// "Use sliding window memory pool. full_layer_tokens=375360, swa_layer_tokens=300288"
// (model_runner.py, hybrid SWA models): each pool's size in tokens.
void SlidingWindowPool(std::string_view msg, RunBuilder& b) {
  b.SetEngine("sglang");
  if (auto v = NumberAfter(msg, "full_layer_tokens=")) b.SetFigure("full_layer_tokens", *v);
  if (auto v = NumberAfter(msg, "swa_layer_tokens=")) b.SetFigure("swa_layer_tokens", *v);
}

// "Using KV cache dtype: torch.bfloat16", "Use sliding window memory pool. ...".
bool HandleU(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "Using KV cache dtype: ")) {
    b.SetEngine("sglang");
    if (b.run().kv_dtype.empty()) b.run().kv_dtype = Text(msg.substr(22));
    return true;
  }
  if (StartsWith(msg, "Use sliding window memory pool.")) {
    SlidingWindowPool(msg, b);
    return true;
  }
  return false;
}

// "Memory pool end. avail mem=...", "Mamba Cache is allocated. ...".
bool HandleM(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "Memory pool end.")) {
    b.SetEngine("sglang");
    b.AddPoint(kStageMemoryPoolEnd, NumberAfter(msg, "avail mem="), std::nullopt);
    return true;
  }
  if (StartsWith(msg, "Mamba Cache is allocated.")) {
    MambaAllocated(msg, b);
    return true;
  }
  return false;
}

bool HandleCapture(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "Capture cuda graph bs")) {
    GraphBatchSizes(msg, b);
    return true;
  }
  // "Capture cuda graph begin.", "Capture target decode CUDA graph begin. ...",
  // "Capture piecewise CUDA graph end. ...", "Capture draft cuda graph end. ..."
  bool draft = Contains(msg, "draft");
  if (Contains(msg, "graph begin")) {
    if (!draft) GraphBegin(msg, b);
    return true;
  }
  if (Contains(msg, "graph end")) {
    if (!draft) GraphEnd(msg, b);
    return true;
  }
  return false;
}

}  // namespace

void ReadServerArgs(std::string_view repr, RunBuilder& b) {
  b.StartLaunch();
  b.SetEngine("sglang");
  PyParse parsed = ParsePyRepr(repr);
  RunRecord& r = b.run();
  const PyValue& v = parsed.value;
  if (v.kind != PyValue::Kind::kCall) {
    r.settings_complete = false;
    b.Note("server_args is not a ServerArgs(...) repr: " + parsed.problem);
    return;
  }
  for (size_t i = 0; i < v.kw_names.size(); ++i) {
    r.settings.push_back({v.kw_names[i], v.kw_values[i].Display(), "unknown", ""});
  }
  if (!parsed.complete) {
    r.settings_complete = false;
    b.Note("server_args was cut or trimmed (" + parsed.problem + "); read " +
           fmt::format("{}", v.kw_names.size()) + " arguments");
  }
  if (const PyValue* m = v.Kwarg("model_path"); m != nullptr) r.model = m->Display();
}

bool HandleSglangLine(std::string_view msg, RunBuilder& b) {
  if (msg.empty()) return false;
  switch (msg[0]) {
    case 's':
      if (StartsWith(msg, "server_args=ServerArgs(")) {
        ReadServerArgs(msg.substr(12), b);
        return true;
      }
      return false;
    case 'I':
      if (StartsWith(msg, "Init torch distributed ends.")) {
        b.SetEngine("sglang");
        if (Contains(msg, "elapsed=")) b.SetEra(kEra2026);
        b.AddPoint(kStageInitDistributed, std::nullopt, NumberAfter(msg, "mem usage="));
        return true;
      }
      return false;
    case 'L':
      if (StartsWith(msg, "Load weight begin.")) {
        b.SetEngine("sglang");
        b.AddPoint(kStageLoadWeightBegin, NumberAfter(msg, "avail mem="), std::nullopt);
        return true;
      }
      if (StartsWith(msg, "Load weight end.")) {
        LoadWeightEnd(msg, b);
        return true;
      }
      return MemoryFailure(msg, b);
    case 'U':
      return HandleU(msg, b);
    case 'M':
      return HandleM(msg, b);
    case 'C':
      return StartsWith(msg, "Capture ") && HandleCapture(msg, b);
    case 'm':
      if (StartsWith(msg, "max_total_num_tokens=")) {
        Summary(msg, b);
        return true;
      }
      if (StartsWith(msg, "max_total_tokens=") && Contains(msg, "the profiled value ")) {
        ProfiledValue(msg, b);
        return true;
      }
      return false;
    case 'T':
      if (StartsWith(msg, "The server is fired up and ready to roll")) {
        b.SetEngine("sglang");
        b.MarkReady();
        return true;
      }
      return MemoryFailure(msg, b);
    case 'K':
      if (StartsWith(msg, "KV Cache is allocated.") ||
          StartsWith(msg, "KV Cache VA upper bound.")) {
        KvAllocated(msg, b);
        return true;
      }
      return false;
    case 'N':
    case 'R':  // "RuntimeError: Not enough memory. ..." quoted without the scheduler's lines
    case 'V':  // "ValueError: Loaded weights leave no GPU memory for the KV cache ..."
      return MemoryFailure(msg, b);
    default:
      break;
  }
  // "<label> KV Cache is allocated." (a second pool, e.g. a draft's): cheap
  // test on the second word first.
  size_t space = msg.find(' ');
  if (space != std::string_view::npos && space < 24 && msg.substr(space + 1, 9) == "KV Cache ") {
    return true;  // other pools than the target's are not part of the run's KV figures
  }
  return false;
}

}  // namespace kvplan
