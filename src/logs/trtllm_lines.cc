#include "logs/trtllm_lines.h"

#include <string>

#include "logs/text_scan.h"

namespace kvplan {
namespace {

constexpr std::string_view kEngine = "trtllm";

// "[MemUsageChange] Allocated 78.30 GiB for max tokens in paged KV cache (3731744)." and
// the same without the tag (kvCacheManager.cpp, C++ runtime and PyTorch backend alike).
bool PagedKvAllocated(std::string_view msg, RunBuilder& b) {
  size_t at = msg.find(" for max tokens in paged KV cache (");
  if (at == std::string_view::npos) return false;
  b.SetEngine(kEngine);
  std::string_view head = msg.substr(0, at);
  size_t number = head.rfind("Allocated ");
  std::string_view amount = number == std::string_view::npos ? head : head.substr(number + 10);
  std::optional<double> v = TakeNumber(&amount);
  if (v && StartsWith(amount, " GiB")) b.SetFigure("kv_cache_gib", *v);
  if (v && StartsWith(amount, " MiB")) b.SetFigure("kv_cache_mib", *v);
  b.SetFigureIfRead("max_tokens_in_paged_kv_cache", NumberAfter(msg.substr(at), "("));
  return true;
}

// "Max KV cache blocks per sequence: 65 [window size=2051], tokens per block=32, primary
// blocks=116617, secondary blocks=0"
void BlocksPerWindow(std::string_view msg, RunBuilder& b) {
  b.SetEngine(kEngine);
  b.SetFigureIfRead("max_blocks_per_sequence", NumberAfter(msg, "per sequence: "));
  b.SetFigureIfRead("attention_window_size", NumberAfter(msg, "[window size="));
  b.SetFigureIfRead("tokens_per_block", NumberAfter(msg, "tokens per block="));
  b.SetFigureIfRead("primary_blocks", NumberAfter(msg, "primary blocks="));
  b.SetFigureIfRead("secondary_blocks", NumberAfter(msg, "secondary blocks="));
}

// "Allocated 773.51 MiB for execution context memory.", "Allocated 2.66 GB GPU memory for
// runtime buffers.", "Allocated 5.76 GB GPU memory for decoder.", or "43.29 MB" (units as
// printed).
bool RuntimeAllocation(std::string_view msg, RunBuilder& b) {
  struct Kind {
    std::string_view tail;
    const char* key;
  };
  static constexpr Kind kKinds[] = {
      {" MiB for execution context memory", "execution_context_mib"},
      {" GB GPU memory for runtime buffers", "runtime_buffers_gb"},
      {" GB GPU memory for decoder", "decoder_gb"},
      // The same two lines when the allocation is under 1 GB (TensorRT-LLM prints MB then).
      {" MB GPU memory for runtime buffers", "runtime_buffers_mb"},
      {" MB GPU memory for decoder", "decoder_mb"},
  };
  for (const Kind& k : kKinds) {
    if (!Contains(msg, k.tail)) continue;
    b.SetEngine(kEngine);
    b.SetFigureIfRead(k.key, NumberAfter(msg, "Allocated "));
    return true;
  }
  return PagedKvAllocated(msg, b);
}

bool HandleA(std::string_view msg, RunBuilder& b) {
  // "Attention workspace size is not enough, increase the size from 0 bytes to 67462144 bytes"
  // (WARNING, attentionOp): the workspace grows outside the KV budget. Figures keep their
  // first value, so the first size the log asks for is the one recorded.
  if (StartsWith(msg, "Attention workspace size is not enough")) {
    b.SetEngine(kEngine);
    if (size_t to = msg.rfind(" to "); to != std::string_view::npos) {
      b.SetFigureIfRead("attention_workspace_bytes", NumberAfter(msg.substr(to), " to "));
    }
    return true;
  }
  if (StartsWith(msg, "Allocate ") && Contains(msg, " bytes for k/v cache")) {  // <= v0.9
    b.SetEngine(kEngine);
    b.SetFigureIfRead("kv_cache_bytes", NumberAfter(msg, "Allocate "));
    return true;
  }
  return StartsWith(msg, "Allocated ") && RuntimeAllocation(msg, b);
}

// "[MemUsageChange] TensorRT-managed allocation in IExecutionContext creation: CPU +0, GPU
// +0, now: CPU 0, GPU 6683 (MiB)" and the same without the tag.
bool TrtManaged(std::string_view msg, RunBuilder& b) {
  if (!StartsWith(msg, "TensorRT-managed allocation in IExecutionContext")) return false;
  b.SetEngine(kEngine);
  if (size_t now = msg.find("now: "); now != std::string_view::npos) {
    b.SetFigureIfRead("trt_managed_gpu_mib", NumberAfter(msg.substr(now), "GPU "));
  }
  return true;
}

// The PyTorch backend's verdict when a component of the executor does not fit
// (_torch/pyexecutor/py_executor_creator.py _ExecutorMemoryMonitor._maybe_explain_if_oom, 1.0):
// "Executor creation failed due to insufficient GPU memory." then, one per line, "The following
// component could not be created: KV cache", "Total GPU memory (GiB): 140.06", "Free GPU memory
// before component creation attempt (GiB): 108.86" and each earlier component's free memory
// "before / after" ("Model: 139.55 / 110.70"): the weights are the model row's difference.
constexpr std::string_view kExecutorOom = "Executor creation failed due to insufficient GPU memory";

bool ExecutorOom(std::string_view msg, RunBuilder& b) {
  if (!Contains(msg, kExecutorOom)) return false;
  b.Fail(msg.substr(msg.find(kExecutorOom)), FailureKind::kMemory);
  b.SetEngine(kEngine);
  return true;
}

// The lines after the verdict; only a TensorRT-LLM run that failed for memory reads them.
bool ExecutorOomDetail(std::string_view msg, RunBuilder& b) {
  const RunRecord& r = b.run();
  if (r.engine != kEngine || r.outcome != "failed") return false;
  static constexpr std::string_view kComponent = "The following component could not be created: ";
  if (StartsWith(msg, kComponent)) {
    b.Note("the component that did not fit: " + std::string(msg.substr(kComponent.size())));
    return true;
  }
  if (StartsWith(msg, "Total GPU memory (GiB): ")) {
    b.SetFigureIfRead("total_gpu_memory_gib", NumberAfter(msg, "(GiB): "));
    return true;
  }
  if (StartsWith(msg, "Free GPU memory before component creation attempt (GiB): ")) {
    b.SetFigureIfRead("free_at_failure_gib", NumberAfter(msg, "(GiB): "));
    return true;
  }
  if (StartsWith(msg, "Model: ") || StartsWith(msg, "model: ")) {
    std::string_view rest = msg.substr(7);  // after "Model: " / "model: "
    std::optional<double> before = TakeNumber(&rest);
    if (!before || !StartsWith(rest, " / ")) return false;
    b.SetFigure("free_before_model_gib", *before);
    b.SetFigureIfRead("free_after_model_gib", NumberAfter(rest, " / "));
    return true;
  }
  return false;
}

// The C++ batch manager's check that the pool holds one sequence (v0.7-v0.9), as Triton's
// model load reports it: "... maxTokensInPagedKvCache (29184) must be large enough to process
// at least 1 sequence to completion (i.e. must be larger than beam_width (1) * tokensPerBlock
// (128) * maxBlocksPerSeq (272))".
bool PoolBelowOneSequence(std::string_view msg, RunBuilder& b) {
  if (!Contains(msg, "must be large enough to process at least 1 sequence to completion")) {
    return false;
  }
  b.Fail(msg.substr(msg.find("maxTokensInPagedKvCache")), FailureKind::kMemory);
  b.SetEngine(kEngine);
  b.SetFigureIfRead("max_tokens_in_paged_kv_cache", NumberAfter(msg, "maxTokensInPagedKvCache ("));
  b.SetFigureIfRead("tokens_per_block", NumberAfter(msg, "tokensPerBlock ("));
  b.SetFigureIfRead("max_blocks_per_sequence", NumberAfter(msg, "maxBlocksPerSeq ("));
  return true;
}

bool MemUsageChange(std::string_view msg, RunBuilder& b) {
  std::string_view rest = msg.substr(17);  // after "[MemUsageChange] "
  return TrtManaged(rest, b) || (StartsWith(rest, "Allocated ") && RuntimeAllocation(rest, b));
}

}  // namespace

bool HandleTrtllmLine(std::string_view msg, RunBuilder& b) {
  // " Allocated 2.66 GB GPU memory for runtime buffers." keeps a blank where a user cut
  // the "[TensorRT-LLM][INFO]" prefix.
  if (!msg.empty() && msg[0] == ' ') msg.remove_prefix(1);
  if (msg.empty()) return false;
  switch (msg[0]) {
    case '[':
      return StartsWith(msg, "[MemUsageChange] ") && MemUsageChange(msg, b);
    case 'A':
      return HandleA(msg, b);
    case 'T':
      return TrtManaged(msg, b) || ExecutorOomDetail(msg, b);
    case 'U':  // "Using 132608 tokens in paged KV cache." (<= v0.9), ", and 272 blocks per
               // sequence" in v0.8
      if (StartsWith(msg, "Using ") && Contains(msg, " tokens in paged KV cache")) {
        b.SetEngine(kEngine);
        b.SetFigureIfRead("max_tokens_in_paged_kv_cache", NumberAfter(msg, "Using "));
        b.SetFigureIfRead("max_blocks_per_sequence", NumberAfter(msg, "cache, and "));
        return true;
      }
      return false;
    case 'R':  // "RuntimeError: Executor creation failed due to insufficient GPU memory."
    case 'F':  // "Failed to initialize executor on rank 1: Executor creation failed ..."
      return ExecutorOom(msg, b) || ExecutorOomDetail(msg, b);
    case 'E':  // Triton's "E0306 16:40:07.708802 117 backend_model.cc:691] ERROR: ..."
      return ExecutorOom(msg, b) || PoolBelowOneSequence(msg, b);
    case 'm':
      return PoolBelowOneSequence(msg, b) || ExecutorOomDetail(msg, b);
    case 'N':
      if (StartsWith(msg, "Number of tokens per block: ")) {
        b.SetEngine(kEngine);
        b.SetFigureIfRead("tokens_per_block", NumberAfter(msg, "per block: "));
        return true;
      }
      if (StartsWith(msg, "Number of blocks in KV cache primary pool: ")) {  // C++ runtime, v0.1x
        b.SetEngine(kEngine);
        b.SetFigureIfRead("primary_blocks", NumberAfter(msg, "primary pool: "));
        return true;
      }
      return false;
    case 'M':
      if (ExecutorOomDetail(msg, b)) return true;
      // "Memory usage when calculating max tokens in paged kv cache: total: 79.10 GiB,
      // available: 70.48 GiB" (kvCacheManager.cpp): the free memory the fraction multiplies.
      if (StartsWith(msg, "Memory usage when calculating max tokens in paged kv cache: ")) {
        b.SetEngine(kEngine);
        b.SetFigureIfRead("kv_sizing_total_gib", NumberAfter(msg, "total: "));
        b.SetFigureIfRead("kv_sizing_free_gib", NumberAfter(msg, "available: "));
        return true;
      }
      if (StartsWith(msg, "Max KV cache blocks per sequence: ")) {
        BlocksPerWindow(msg, b);
        return true;
      }
      if (StartsWith(msg, "MPI size: ")) {  // one line per rank: the world, not TP alone
        b.SetEngine(kEngine);
        b.SetFigureIfRead("mpi_world_size", NumberAfter(msg, "MPI size: "));
        return true;
      }
      return false;
    case 'I':  // Triton's "I0410 16:58:08.485508 1 model_lifecycle.cc:849] "successfully loaded
               // 'tensorrt_llm'"": the engine is up
      if (b.run().engine == kEngine && Contains(msg, "successfully loaded 'tensorrt_llm'")) {
        b.MarkReady();
        return true;
      }
      return false;
    case 'L':
      if (StartsWith(msg, "Loaded engine size: ")) {
        b.SetEngine(kEngine);
        b.SetFigureIfRead("engine_size_mib", NumberAfter(msg, "engine size: "));
        return true;
      }
      return false;
    default:
      return false;
  }
}

}  // namespace kvplan
