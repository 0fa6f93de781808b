#include "logs/vllm_lines.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/core.h>

#include "base/text.h"
#include "base/units.h"
#include "logs/py_repr.h"
#include "logs/text_scan.h"

namespace kvplan {
namespace {

constexpr std::string_view kEraTabular = "V0 (~v0.6.5, tabular profiling results)";

// The value after `key` up to the next ", " ("torch.bfloat16"); "" when absent.
std::string_view FieldAfter(std::string_view s, std::string_view key) {
  size_t at = s.find(key);
  if (at == std::string_view::npos) return {};
  std::string_view rest = s.substr(at + key.size());
  return rest.substr(0, std::min(rest.find(", "), rest.size()));
}

// "vLLM API server version 0.10.1" / "Initializing a V1 LLM engine (v0.10.1) with config: ..."
void Version(std::string_view msg, RunBuilder& b, bool starts_launch) {
  if (starts_launch) b.StartLaunch();
  b.SetEngine("vllm");
  RunRecord& r = b.run();
  std::string_view v;
  if (size_t at = msg.find("version "); at != std::string_view::npos) {
    v = msg.substr(at + 8);
  } else if (size_t open = msg.find("(v"); open != std::string_view::npos) {
    v = msg.substr(open + 2);
    v = v.substr(0, v.find(')'));
  }
  v = v.substr(0, v.find(' '));
  if (r.version.empty() && !v.empty()) r.version = std::string(v);
  if (Contains(msg, "V1 LLM engine")) b.SetEra("V1");
  if (size_t at = msg.find("model='"); at != std::string_view::npos && r.model.empty()) {
    std::string_view m = msg.substr(at + 7);
    r.model = std::string(m.substr(0, m.find('\'')));
  }
}

// The engine config line's resolved values ("Initializing a V0 LLM engine (v0.10.1) with config:
// model='...', dtype=torch.bfloat16, max_seq_len=1000, ..., tensor_parallel_size=1,
// pipeline_parallel_size=2, ..., kv_cache_dtype=fp8, ..."; llm_engine.py V0, core.py V1). The
// layout goes into figures, not settings: provenance.cc makes settings of them after the scan,
// so that this line never looks like a second non-default args line. The leading ", " keeps
// "draft_tensor_parallel_size=" of a speculative config from matching.
void EngineConfig(std::string_view msg, RunBuilder& b) {
  std::string_view config = msg.substr(msg.find(" with config: "));
  b.SetFigureIfRead("max_model_len", NumberAfter(config, ", max_seq_len="));
  b.SetFigureIfRead("config_tensor_parallel_size", NumberAfter(config, ", tensor_parallel_size="));
  b.SetFigureIfRead("config_pipeline_parallel_size",
                    NumberAfter(config, ", pipeline_parallel_size="));
  b.SetFigureIfRead("config_data_parallel_size", NumberAfter(config, ", data_parallel_size="));
  RunRecord& r = b.run();
  std::string_view dtype = FieldAfter(config, ", dtype=");
  if (r.dtype.empty() && !dtype.empty()) r.dtype = std::string(dtype);
  std::string_view kv = FieldAfter(config, ", kv_cache_dtype=");
  if (r.kv_dtype.empty() && !kv.empty() && kv != "auto") r.kv_dtype = std::string(kv);
}

// The start-up banner's block art (v0.2x): " ▄▄ ▄█ █ ... █  version 0.25.0" and "  █▄█▀ █ ... █
// model   Qwen/Qwen3.5-2B" (api_utils.py).
bool Banner(std::string_view msg, RunBuilder& b) {
  size_t art = msg.find_first_not_of(' ');
  if (art == std::string_view::npos || art > 8 || msg[art] != '\xe2') return false;
  if (Contains(msg, "  version ")) {
    Version(msg, b, true);
    return true;
  }
  size_t at = msg.find("  model   ");
  if (at == std::string_view::npos) return false;
  b.SetEngine("vllm");
  std::string_view model = msg.substr(at + 10);
  model.remove_prefix(std::min(model.find_first_not_of(' '), model.size()));
  if (b.run().model.empty() && !model.empty()) b.run().model = std::string(model);
  return true;
}

// "non-default args: {'model': 'Qwen/Qwen3-8B', 'gpu_memory_utilization': 0.95}"
void NonDefaultArgs(std::string_view msg, RunBuilder& b) {
  if (!b.run().settings.empty()) b.StartLaunch();
  b.SetEngine("vllm");
  PyParse parsed = ParsePyRepr(msg.substr(msg.find('{')));
  RunRecord& r = b.run();
  const PyValue& v = parsed.value;
  if (v.kind != PyValue::Kind::kDict || !parsed.complete) {
    r.settings_complete = false;
    b.Note("vLLM's non-default args line was cut or garbled: " + parsed.problem);
  }
  for (size_t i = 0; i < v.keys.size(); ++i) {
    std::string key = v.keys[i].Display();
    r.settings.push_back({key, v.items[i].Display(), "user", "listed in vLLM's non-default args"});
    if (key == "model" && r.model.empty()) r.model = v.items[i].Display();
  }
}

// V0 and V1 up to ~v0.8.5 print the whole parsed namespace at start-up (entrypoints/openai/
// api_server.py run_server: logger.info("args: %s", args)): "args: Namespace(host=None, ...,
// model='...', tensor_parallel_size=2, gpu_memory_utilization=0.9, ...)". Every argument is
// there, the user's and argparse's defaults alike, so who set a value is unknown (a launch
// command in the log says, provenance.cc); None is left for the engine to resolve, not a value.
void NamespaceArgs(std::string_view msg, RunBuilder& b) {
  if (!b.run().settings.empty()) b.StartLaunch();
  b.SetEngine("vllm");
  PyParse parsed = ParsePyRepr(msg.substr(msg.find("Namespace(")));
  RunRecord& r = b.run();
  const PyValue& v = parsed.value;
  if (v.kind != PyValue::Kind::kCall || !parsed.complete) {
    r.settings_complete = false;
    b.Note(fmt::format("vLLM's args Namespace was cut or garbled ({}); read {} arguments",
                       parsed.problem, v.kw_names.size()));
  }
  for (size_t i = 0; i < v.kw_names.size(); ++i) {
    const PyValue& value = v.kw_values[i];
    if (value.kind == PyValue::Kind::kNone || value.kind == PyValue::Kind::kOpaque) continue;
    r.settings.push_back({v.kw_names[i], value.Display(), "unknown", std::string(kArgsLineRule)});
  }
  const PyValue* model = v.Kwarg("model");
  if (model == nullptr || model->kind != PyValue::Kind::kStr) model = v.Kwarg("model_tag");
  if (model != nullptr && model->kind == PyValue::Kind::kStr && r.model.empty()) {
    r.model = model->Display();
  }
}

// "Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB ..."
void ProfilingResults(std::string_view msg, RunBuilder& b) {
  b.SetEngine("vllm");
  // A bare header is followed by one row per figure (TabularRow).
  b.SetEra(msg.ends_with("results:") ? kEraTabular : "V0 (~v0.6.3)");
  std::string_view rest = msg.substr(msg.find(':') + 1);
  while (!rest.empty()) {
    while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    size_t eq = rest.find('='), end = rest.find(' ');
    if (eq == std::string_view::npos || eq > end) break;
    std::string key(rest.substr(0, eq));
    std::string_view value = rest.substr(eq + 1);
    std::optional<double> v = TakeNumber(&value);
    if (v) b.SetFigure(StartsWith(value, "GiB") ? key + "_gib" : key, *v);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
  }
}

// The value of a row of V0's tabular "Memory profiling results:" (~v0.6.5): "total_gpu_memory
// \t79.22GiB" -> 79.22; blanks or tabs between the name and the value.
std::optional<double> TabularValue(std::string_view msg, std::string_view name) {
  std::string_view rest = msg.substr(name.size());
  size_t blanks = 0;
  while (blanks < rest.size() && (rest[blanks] == ' ' || rest[blanks] == '\t')) ++blanks;
  if (blanks == 0) return std::nullopt;
  rest.remove_prefix(blanks);
  return TakeNumber(&rest);
}

// One row of the tabular profiling results; false when `msg` is none. Only after the header
// (which sets the era): a bare "duration 0.75" elsewhere is no vLLM line.
bool TabularRow(std::string_view msg, RunBuilder& b) {
  if (b.run().era != kEraTabular) return false;
  struct Row {
    std::string_view name;
    const char* key;
  };
  static constexpr Row kRows[] = {
      {"duration", "profiling_time_s"},
      {"total_gpu_memory", "total_gpu_memory_gib"},
      {"gpu_memory_utilization", "gpu_memory_utilization"},
      {"non_torch_memory", "non_torch_memory_gib"},
      {"PyTorch activation peak memory", "activation_peak_gib"},
      {"available_kv_cache_memory", "available_kv_cache_gib"},
  };
  for (const Row& row : kRows) {
    if (!StartsWith(msg, row.name)) continue;
    std::optional<double> v = TabularValue(msg, row.name);
    if (!v) return false;
    b.SetEngine("vllm");
    b.SetFigure(row.key, *v);
    return true;
  }
  return false;
}

// "the current vLLM instance can use total_gpu_memory (79.22GiB) x gpu_memory_utilization (0.90)
// = 71.29GiB", or the tabular "the current vLLM instance can use    71.29GiB".
void InstanceBudget(std::string_view msg, RunBuilder& b) {
  b.SetEngine("vllm");
  if (!Contains(msg, "(")) {  // "can use" alone is specific enough to need no header
    b.SetFigureIfRead("instance_can_use_gib",
                      TabularValue(msg, "the current vLLM instance can use"));
    return;
  }
  b.SetFigureIfRead("total_gpu_memory_gib", NumberAfter(msg, "total_gpu_memory ("));
  b.SetFigureIfRead("gpu_memory_utilization", NumberAfter(msg, "gpu_memory_utilization ("));
  b.SetFigureIfRead("instance_can_use_gib", NumberAfter(msg, ") = "));
}

// V1's DEBUG profiling lines (gpu_worker.py, v0.9.2 on): "Initial free memory: 139.12 GiB,
// free memory: 81.52 GiB, requested GPU memory: 69.86 GiB" and "Memory profiling takes 40.46
// seconds. Total non KV cache memory: 62.79GiB; torch peak memory increase: 5.62GiB; non-torch
// forward increase memory: 2.04GiB; weights memory: 55.13GiB." (V0 prints the first sentence).
void InitialFreeMemory(std::string_view msg, RunBuilder& b) {
  b.SetEngine("vllm");
  b.SetFigureIfRead("initial_free_memory_gib", NumberAfter(msg, "Initial free memory: "));
  b.SetFigureIfRead("free_memory_after_profile_gib", NumberAfter(msg, ", free memory: "));
  b.SetFigureIfRead("requested_memory_gib", NumberAfter(msg, "requested GPU memory: "));
}

// V1 with --kv-cache-memory-bytes (v1/worker/gpu_worker.py determine_available_memory, v0.11
// on): "Initial free memory 93.88 GiB, reserved 49.0 GiB memory for KV Cache as specified by
// kv_cache_memory_bytes config and skipped memory profiling. ...". The reserved bytes are the
// KV budget the worker returns, in place of a profiled "Available KV cache memory".
void ReservedKvMemory(std::string_view msg, RunBuilder& b) {
  b.SetEngine("vllm");
  b.SetFigureIfRead("initial_free_memory_gib", NumberAfter(msg, "Initial free memory "));
  b.SetFigureIfRead("available_kv_cache_gib", NumberAfter(msg, ", reserved "));
}

void ProfilingTakes(std::string_view msg, RunBuilder& b) {
  b.SetEngine("vllm");
  b.SetFigureIfRead("profiling_time_s", NumberAfter(msg, "profiling takes "));
  b.SetFigureIfRead("non_kv_cache_memory_gib", NumberAfter(msg, "Total non KV cache memory: "));
  b.SetFigureIfRead("torch_peak_increase_gib", NumberAfter(msg, "torch peak memory increase: "));
  b.SetFigureIfRead("non_torch_increase_gib",
                    NumberAfter(msg, "non-torch forward increase memory: "));
  b.SetFigureIfRead("weights_memory_gib", NumberAfter(msg, "weights memory: "));
}

// The record key of one "X GiB for LABEL" term of the start-up summary below; empty for a
// label kvplan does not know.
std::string_view UsageTermKey(std::string_view label) {
  if (label == "weight" || label == "weights") return "weights_gib";
  if (StartsWith(label, "consumed memory")) return "consumed_memory_gib";  // weights + non-torch
  if (label == "peak activation") return "activation_peak_gib";
  if (label == "non-torch memory") return "non_torch_memory_gib";
  if (label.ends_with("raph memory")) return "graph_memory_gib";  // "CUDAGraph", "NPU graph"
  return {};
}

// "Actual usage is 50.31 GiB for weight, 5.7 GiB for peak activation, 0.72 GiB for non-torch
// memory, and 5.97 GiB for CUDAGraph memory": each "X GiB for LABEL" term, in any order.
void UsageTerms(std::string_view usage, RunBuilder& b) {
  static constexpr std::string_view kFor = " GiB for ";
  usage = usage.substr(0, usage.find(". "));
  for (size_t at = usage.find(kFor); at != std::string_view::npos; at = usage.find(kFor, at + 1)) {
    size_t start = at;
    while (start > 0 && (IsAsciiDigit(usage[start - 1]) || usage[start - 1] == '.')) --start;
    std::string_view label = usage.substr(at + kFor.size());
    label = label.substr(0, label.find(','));
    if (label.ends_with('.')) label.remove_suffix(1);
    std::string_view key = UsageTermKey(label);
    std::string_view number = usage.substr(start, at - start);
    if (key.empty() || number.empty()) continue;  // a cut line ends mid-term
    b.SetFigureIfRead(std::string(key), TakeNumber(&number));
  }
}

// The start-up summary of vLLM V1 (v1/worker/gpu_worker.py determine_available_memory, as the
// 2025-10 logs, ~v0.11, print it): "Free memory on device (78.84/79.33 GiB) on startup. Desired GPU
// memory utilization is (0.9, 71.39 GiB). Actual usage is 50.31 GiB for weight, 5.7 GiB for peak
// activation, 0.72 GiB for non-torch memory, and 5.97 GiB for CUDAGraph memory. Replace
// gpu_memory_utilization config with `--kv-cache-memory=9167749734` to fit into requested memory,
// ... Current kv cache memory in use is 15736029798 bytes." Later releases (the 2026-08 logs) print
// "15.03 GiB for consumed memory (weights + non-torch)" as one term and the KV in GiB; vllm-ascend
// (worker.py, 2026) prints "Actual usage: 1.14 GiB for weights, ..., 0.04 GiB for NPU graph
// memory".
void FreeMemoryOnStartup(std::string_view msg, RunBuilder& b) {
  b.SetEngine("vllm");
  std::string_view device = msg.substr(0, msg.find(" on startup"));
  b.SetFigureIfRead("free_memory_on_startup_gib", NumberAfter(device, "on device ("));
  b.SetFigureIfRead("total_gpu_memory_gib", NumberAfter(device, "/"));
  if (size_t at = msg.find("utilization is ("); at != std::string_view::npos) {
    std::string_view desired = msg.substr(at);
    b.SetFigureIfRead("gpu_memory_utilization", NumberAfter(desired, "("));
    b.SetFigureIfRead("requested_memory_gib", NumberAfter(desired, ", "));
  }
  if (size_t at = msg.find("Actual usage"); at != std::string_view::npos) {
    UsageTerms(msg.substr(at), b);
  }
  if (Contains(msg, "GiB for consumed memory")) {
    b.SetEra("V1 (2026 start-up summary: weights + non-torch as one term)");
  } else if (Contains(msg, "Actual usage is ")) {
    b.SetEra("V1 (v0.11 on: the start-up memory summary)");
  }
  b.SetFigureIfRead("suggested_kv_cache_memory_bytes", NumberAfter(msg, "--kv-cache-memory="));
  // The KV budget the engine kept: bytes in the first form, GiB in the later one.
  static constexpr std::string_view kKvInUse = "kv cache memory in use is ";
  if (size_t at = msg.find(kKvInUse); at != std::string_view::npos) {
    std::string_view rest = msg.substr(at + kKvInUse.size());
    std::optional<double> kv = TakeNumber(&rest);
    if (kv && StartsWith(rest, " bytes")) {
      b.SetFigure("kv_cache_memory_in_use_bytes", *kv);
      // As the GiB lines print it (format_gib: two decimals).
      b.SetFigure("available_kv_cache_gib",
                  std::round(*kv / static_cast<double>(kGiB) * 100) / 100);
    } else if (kv && StartsWith(rest, " GiB")) {
      b.SetFigure("available_kv_cache_gib", *kv);
    }
  }
}

// "model weights take 19.86GiB; non_torch_memory takes 0.16GiB; PyTorch activation peak
// memory takes 36.63GiB; the rest of the memory reserved for KV Cache is 14.65GiB."
void BudgetTerms(std::string_view msg, RunBuilder& b) {
  b.SetEngine("vllm");
  std::optional<double> w = NumberAfter(msg, "model weights take ");
  b.SetFigureIfRead("weights_take_gib", w);
  if (w && !b.run().Figure("weights_gib")) b.SetFigureIfRead("weights_gib", w);
  b.SetFigureIfRead("non_torch_memory_gib", NumberAfter(msg, "non_torch_memory takes "));
  b.SetFigureIfRead("activation_peak_gib", NumberAfter(msg, "activation peak memory takes "));
  b.SetFigureIfRead("available_kv_cache_gib", NumberAfter(msg, "reserved for KV Cache is "));
}

// "Loading model weights took 14.9888 GB" / "Model loading took 15.6841 GiB and 17.58 seconds"
// / "Model loading took 30.8 GiB memory and 12.3 seconds" / v0.3's "Loading model weights
// took 244.61 MB" (model_runner.py divides by 2**20: MiB).
void WeightsLoaded(std::string_view msg, RunBuilder& b) {
  RunRecord& r = b.run();
  if (r.outcome != "incomplete" &&
      (r.Figure("weights_gb") || r.Figure("weights_gib") || r.Figure("weights_mb"))) {
    b.StartLaunch();
  }
  b.SetEngine("vllm");
  std::optional<double> v = NumberAfter(msg, "took ");
  if (!v) return;
  std::string_view unit = msg.substr(msg.find("took ") + 5);
  unit = unit.substr(unit.find(' ') + 1);
  if (StartsWith(unit, "MB")) {
    b.SetFigure("weights_mb", *v);
    b.AddPoint(kStageLoadWeightEnd, std::nullopt, *v / 1024);
    return;
  }
  b.SetFigure(StartsWith(unit, "GiB") ? "weights_gib" : "weights_gb", *v);
  b.AddPoint(kStageLoadWeightEnd, std::nullopt, v);
}

// "# GPU blocks: 1952, # CPU blocks: 2048", "# CUDA blocks: 6001, ...", "GPU blocks: 1381"
bool Blocks(std::string_view msg, RunBuilder& b) {
  size_t at = msg.find(" blocks: ");
  if (at == std::string_view::npos) return false;
  std::string_view kind = msg.substr(0, at);
  // The CPU count follows the device's: "# GPU blocks: 5000, # CPU blocks: 2048". V0's
  // executor_base.py (v0.7) names the device by the platform's dispatch_key, "CPU" where vLLM
  // detected no platform (vllm-ascend's NPU: "# CPU blocks: 18111, # CPU blocks: 4681").
  size_t cpu = msg.find(", # CPU blocks: ", at);
  bool device = kind.ends_with("GPU") || kind.ends_with("CUDA") || kind.ends_with("cuda") ||
                kind.ends_with("HPU") ||  // "# HPU blocks: 3184" (HabanaAI/vllm-fork)
                (kind.ends_with("CPU") && cpu != std::string_view::npos);
  if (!device) return false;
  b.SetEngine("vllm");
  b.SetFigureIfRead("num_gpu_blocks", NumberAfter(msg, " blocks: "));
  if (cpu != std::string_view::npos) {
    b.SetFigureIfRead("num_cpu_blocks", NumberAfter(msg.substr(cpu), "CPU blocks: "));
  }
  b.MarkReady();
  return true;
}

// "To serve at least one request with the models's max seq len (262144), (24.0 GiB KV
// cache is needed, which is larger than the available KV cache memory (3.18 GiB). Based
// on the available memory, the estimated maximum model length is 34736. ..."
void NotEnoughKv(std::string_view msg, RunBuilder& b) {
  b.Fail(msg, FailureKind::kMemory);  // first: a relaunch's failure starts a new run
  b.SetEngine("vllm");
  b.SetFigureIfRead("max_model_len", NumberAfter(msg, "max seq len ("));
  if (size_t at = msg.find("), ("); at != std::string_view::npos) {
    b.SetFigureIfRead("needed_kv_gib", NumberAfter(msg.substr(at), "("));
  }
  b.SetFigureIfRead("available_kv_cache_gib", NumberAfter(msg, "available KV cache memory ("));
  b.SetFigureIfRead("estimated_max_model_len", NumberAfter(msg, "maximum model length is "));
}

bool Failure(std::string_view msg, RunBuilder& b) {
  if (Contains(msg, "To serve at least one request with the model")) {
    NotEnoughKv(msg, b);
    return true;
  }
  if (Contains(msg, "that can be stored in KV cache (")) {  // V0
    b.Fail(msg, FailureKind::kMemory);
    b.SetEngine("vllm");
    b.SetFigureIfRead("max_model_len", NumberAfter(msg, "max seq len ("));
    b.SetFigureIfRead("max_tokens_in_kv_cache", NumberAfter(msg, "stored in KV cache ("));
    return true;
  }
  if (Contains(msg, "No available memory for the cache blocks")) {
    b.Fail(msg, FailureKind::kMemory);
    b.SetEngine("vllm");
    return true;
  }
  // Early V1 (v1/engine/core.py run_engine_core, v0.7-v0.8): logger.error("EngineCore hit an
  // exception: %s", traceback), the traceback in the same record, one log line per its line.
  if (StartsWith(msg, "EngineCore hit an exception")) {
    b.Fail(msg.substr(0, msg.find(": Traceback")), FailureKind::kGeneric);
    b.SetEngine("vllm");
    if (Contains(msg, "Traceback (most recent call last)")) b.StartTraceback();
    return true;
  }
  if (StartsWith(msg, "EngineCore failed to start") ||
      StartsWith(msg, "Engine core initialization failed")) {
    b.Fail(msg, FailureKind::kGeneric);
    b.SetEngine("vllm");
    return true;
  }
  return false;
}

// Lines starting with 'M': "Model loading took", "Memory profiling results:", "Maximum concurrency
// for".
bool HandleVllmMLine(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "Model loading took")) {
    WeightsLoaded(msg, b);
    return true;
  }
  if (StartsWith(msg, "Memory profiling results:")) {
    ProfilingResults(msg, b);
    return true;
  }
  if (StartsWith(msg, "Memory profiling takes ")) {
    ProfilingTakes(msg, b);
    return true;
  }
  if (StartsWith(msg, "Maximum concurrency for ")) {
    b.SetEngine("vllm");
    b.SetFigureIfRead("max_concurrency_tokens", NumberAfter(msg, "concurrency for "));
    b.SetFigureIfRead("max_concurrency", NumberAfter(msg, "per request: "));
    return true;
  }
  return false;
}

// Lines starting with 'A': "Available KV cache memory: ", "Application startup complete".
bool HandleVllmALine(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "Available KV cache memory: ")) {
    b.SetEngine("vllm");
    b.SetEra("V1");
    b.SetFigureIfRead("available_kv_cache_gib", NumberAfter(msg, "memory: "));
    return true;
  }
  if (StartsWith(msg, "Application startup complete")) {
    b.MarkReady();
    return true;
  }
  return false;
}

// "CUDA graph memory profiling is enabled (default since v0.21.0). The current
// --gpu-memory-utilization=0.8200 is equivalent to --gpu-memory-utilization=0.8048 without CUDA
// graph memory profiling. ..." and "CUDA graph pool memory: 0.11 GiB (actual), 0.14 GiB
// (estimated), difference: ..." (gpu_worker.py, v0.21 on).
bool HandleVllmCudaGraphLine(std::string_view msg, RunBuilder& b) {
  // "Chunked prefill is enabled with max_num_batched_tokens=8192." (scheduler.py): the token
  // budget the profiling run measures the activation peak at.
  if (StartsWith(msg, "Chunked prefill is enabled with max_num_batched_tokens=")) {
    b.SetEngine("vllm");
    b.SetFigureIfRead("max_num_batched_tokens", NumberAfter(msg, "max_num_batched_tokens="));
    return true;
  }
  if (StartsWith(msg, "CUDA graph memory profiling is enabled")) {
    b.SetEngine("vllm");
    b.SetFigureIfRead("gpu_memory_utilization", NumberAfter(msg, "--gpu-memory-utilization="));
    b.SetFigureIfRead("gpu_memory_utilization_without_graph_estimate",
                      NumberAfter(msg, "equivalent to --gpu-memory-utilization="));
    return true;
  }
  if (StartsWith(msg, "CUDA graph pool memory: ")) {
    b.SetEngine("vllm");
    b.SetFigureIfRead("cuda_graph_pool_gib", NumberAfter(msg, "pool memory: "));
    b.SetFigureIfRead("cuda_graph_estimate_gib", NumberAfter(msg, "(actual), "));
    return true;
  }
  return false;
}

// The Gaudi fork's memory lines (HabanaAI/vllm-fork, habana_model_runner.py / habana_worker.py):
// "Pre-loading model weights on hpu:0 took 14.97 GiB of device memory (14.97 GiB/94.62 GiB
// used) and ..." and "Initializing cache engine took 49.75 GiB of device memory (65.4 GiB/94.62
// GiB used) and ...": what the step took, the device's use after it, its capacity.
void HabanaTook(std::string_view msg, RunBuilder& b, bool weights) {
  b.SetEngine("vllm");
  std::optional<double> took = NumberAfter(msg, " took ");
  std::string_view device = msg.substr(0, msg.find(" used)"));
  b.SetFigureIfRead("total_gpu_memory_gib", NumberAfter(device, "/"));
  std::optional<double> host;  // "... used) and 2.95 GiB of host memory (...)"
  if (size_t at = msg.find(" used) and "); at != std::string_view::npos) {
    host = NumberAfter(msg.substr(at), " and ");
  }
  if (weights) {
    b.SetFigureIfRead("weights_gib", took);
    b.SetFigureIfRead("weights_host_memory_gib", host);
    b.AddPoint(kStageLoadWeightEnd, std::nullopt, took);
    return;
  }
  b.SetFigureIfRead("kv_cache_gib", took);
  b.SetFigureIfRead("kv_cache_host_memory_gib", host);
  b.SetFigureIfRead("device_used_after_kv_cache_gib", NumberAfter(device, "device memory ("));
}

// "Initializing a V1 LLM engine (v0.10.1) ...", "Initial free memory: ...", "Free memory on
// device (...) on startup. ...", "Initializing cache engine took ..." (Gaudi).
bool HandleVllmIFLine(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "Initializing a V1 LLM engine") ||
      StartsWith(msg, "Initializing a V0 LLM engine") ||  // v0.8.x with V0 chosen
      StartsWith(msg, "Initializing an LLM engine")) {
    Version(msg, b, false);
    if (Contains(msg, " with config: ")) EngineConfig(msg, b);
    return true;
  }
  if (StartsWith(msg, "Initial free memory: ")) {
    InitialFreeMemory(msg, b);
    return true;
  }
  if (StartsWith(msg, "Initial free memory ") && Contains(msg, "kv_cache_memory_bytes config")) {
    ReservedKvMemory(msg, b);
    return true;
  }
  if (StartsWith(msg, "Free memory on device (")) {
    FreeMemoryOnStartup(msg, b);
    return true;
  }
  if (StartsWith(msg, "Initializing cache engine took ")) {
    HabanaTook(msg, b, false);
    return true;
  }
  return false;
}

// Lines starting with 'G': "GPU KV cache size: ", "Graph capturing finished in ", V0's block
// counts.
bool HandleVllmGLine(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "GPU KV cache size: ")) {
    b.SetEngine("vllm");
    b.SetFigureIfRead("gpu_kv_cache_tokens", NumberAfter(msg, "size: "));
    if (Contains(msg, "Maximum concurrency for ")) {
      b.SetFigureIfRead("max_concurrency_tokens", NumberAfter(msg, "concurrency for "));
      b.SetFigureIfRead("max_concurrency", NumberAfter(msg, "per request: "));
    }
    b.MarkReady();
    return true;
  }
  if (StartsWith(msg, "Graph capturing finished in ")) {
    b.SetEngine("vllm");
    b.SetFigureIfRead("cuda_graph_capture_time_s", NumberAfter(msg, "finished in "));
    b.SetFigureIfRead("cuda_graph_mem_gib", NumberAfter(msg, ", took "));
    return true;
  }
  return Blocks(msg, b);
}

// Hybrid attention / Mamba models (V1 config.py, v0.10 on): "Setting attention block size to
// 1056 tokens to ensure that attention page size is >= mamba page size." and "Padding mamba
// page size by 0.76% to ensure that mamba page size and attention page size are exactly
// equal.": the block the KV blocks count in is this one, not the default 16 tokens.
bool HybridBlockSize(std::string_view msg, RunBuilder& b) {
  if (!StartsWith(msg, "Setting attention block size to ")) return false;
  b.SetEngine("vllm");
  b.SetFigureIfRead("attention_block_size", NumberAfter(msg, "block size to "));
  return true;
}

// "Pre-loading model weights on hpu:0 took ..." (Gaudi), "Padding mamba page size by 0.76% ..."
// (HybridBlockSize), a tabular profiling row.
bool HandleVllmPLine(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "Pre-loading model weights on ")) {
    HabanaTook(msg, b, true);
    return true;
  }
  if (StartsWith(msg, "Padding mamba page size by ")) {
    b.SetEngine("vllm");
    b.SetFigureIfRead("mamba_page_padding_pct", NumberAfter(msg, "page size by "));
    return true;
  }
  return TabularRow(msg, b);
}

// "Estimated CUDA graph memory: ...", the V1 engine's num_gpu_blocks report, failures.
bool HandleVllmELine(std::string_view msg, RunBuilder& b) {
  if (StartsWith(msg, "Estimated CUDA graph memory: ")) {
    b.SetFigureIfRead("cuda_graph_estimate_gib", NumberAfter(msg, "memory: "));
    return true;
  }
  // "Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: 26589"
  // (V1 loggers.py); O(1) test, the decode reports start with "Engine 000: " too.
  if (StartsWith(msg, "Engine ") && msg.size() > 12 &&
      StartsWith(msg.substr(12), "vllm cache_config_info")) {
    b.SetFigureIfRead("num_gpu_blocks", NumberAfter(msg, "num_gpu_blocks is: "));
    return true;
  }
  return Failure(msg, b);
}

}  // namespace

bool HandleVllmLine(std::string_view msg, RunBuilder& b) {
  if (msg.empty()) return false;
  switch (msg[0]) {
    case 'v':
      if (StartsWith(msg, "vLLM API server version")) {
        Version(msg, b, true);
        return true;
      }
      return false;
    case ' ':
      return Banner(msg, b);
    case 'I':
    case 'F':
      return HandleVllmIFLine(msg, b);
    case 'C':
      return HandleVllmCudaGraphLine(msg, b);
    case 'P':
      return HandleVllmPLine(msg, b);
    case 'S':
      return HybridBlockSize(msg, b);
    case 'a':
      if (StartsWith(msg, "args: Namespace(")) {
        NamespaceArgs(msg, b);
        return true;
      }
      return TabularRow(msg, b);
    case 'd':
    case 'g':
      return TabularRow(msg, b);
    case 'n':
      if (StartsWith(msg, "non-default args: {")) {
        NonDefaultArgs(msg, b);
        return true;
      }
      return TabularRow(msg, b);
    case 'L':
      if (StartsWith(msg, "Loading model weights took")) {
        WeightsLoaded(msg, b);
        return true;
      }
      return false;
    case 'M':
      return HandleVllmMLine(msg, b);
    case 't':
      if (StartsWith(msg, "the current vLLM instance can use")) {
        InstanceBudget(msg, b);
        b.SetEra("V0 (v0.7-v0.10)");
        return true;
      }
      return TabularRow(msg, b);
    case 'm':
      if (StartsWith(msg, "model weights take ")) {
        BudgetTerms(msg, b);
        return true;
      }
      return false;
    case 'A':
      return HandleVllmALine(msg, b);
    case 'G':
      return HandleVllmGLine(msg, b);
    case '#':
      return Blocks(msg, b);
    case 'E':
      return HandleVllmELine(msg, b);
    case 'U':  // "Using max model len 262144" (V1 config.py / model.py)
      if (StartsWith(msg, "Using max model len ")) {
        b.SetEngine("vllm");
        b.SetFigureIfRead("max_model_len", NumberAfter(msg, "model len "));
        return true;
      }
      return false;
    case 'T':
    case 'V':
    case 'N':
      return Failure(msg, b);
    default:
      return false;
  }
}

}  // namespace kvplan
