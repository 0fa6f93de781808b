// PlanTrtllm: TensorRT-LLM takes free_gpu_memory_fraction of the memory that is
// free after weights and activations (vLLM and SGLang take a fraction of the
// total and subtract). The stages and their text are in engines/trtllm/stages.h.
#include <fmt/core.h>

#include "base/units.h"
#include "engines/trtllm/stages.h"
#include "engines/trtllm/trtllm.h"
#include "kvplan/error.h"

namespace kvplan {

TrtllmMeasured TrtllmMeasuredFromGiB(const std::map<std::string, double>& gib) {
  TrtllmMeasured m;
  for (const auto& [key, value] : gib) {
    if (!(value >= 0) || value > 1e6) {
      throw InputError(
          fmt::format("measured {} must be a non-negative GiB figure, got {}", key, value));
    }
    int64_t b = GiBToBytes(value);
    if (key == "total")
      m.total = b;
    else if (key == "weights")
      m.weights = b;
    else if (key == "activation_peak")
      m.activation_peak = b;
    else if (key == "non_torch")
      m.non_torch = b;
    else if (key == "post_load_free")
      m.post_load_free = b;
    else if (key == "pre_load_free")
      continue;  // not read by TensorRT-LLM's rule
    else {
      throw InputError(
          fmt::format("unknown measured term '{}' for TensorRT-LLM (expected total, "
                      "weights, activation_peak, non_torch or post_load_free)",
                      key));
    }
  }
  return m;
}

namespace {

void TrtllmRefuseDeepseekV4(const ModelSpec& model, const TrtllmRelease& release, PlanResult* out) {
  if (model.compress_ratios.empty()) return;
  // NVIDIA/TensorRT-LLM#13434 (2026-04-29): DeepSeek-V4 lives on the feat/deepseek_v4
  // branch; 1.3.0rc releases serve it by August 2026 (NVIDIA/TensorRT-LLM#18039 on
  // 1.3.0rc24, ai-dynamo/aiconfigurator#1480 on 1.3.0rc20), none of the releases kvplan models.
  out->ok = false;
  out->memory.clear();
  out->max_total_num_tokens = 0;
  out->error_message = fmt::format(
      "kvplan: TensorRT-LLM {} does not serve {} (DeepSeek-V4 came on the feat/deepseek_v4 "
      "branch, in 1.3.0rc releases); its cache is not modelled",
      release.text, model.architecture);
}

}  // namespace

PlanResult PlanTrtllm(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                      const TrtllmArgs& a, const TrtllmMeasured& ms) {
  TrtllmDefaults d = TrtllmResolveDefaults(version, model, a);
  TrtllmTerms t = TrtllmMemoryTerms(model, gpu, a, d, ms);
  TrtllmCell c = TrtllmCellSize(model, a, d);
  TrtllmBudget b = TrtllmKvBudget(t, d);
  TrtllmBlocks k = TrtllmTokenBlocks(b, c, a, d);
  TrtllmVerdict v = TrtllmCheckVerdict(t, b, k, d);

  PlanResult out;
  out.engine = "trtllm";
  out.engine_version = d.release.text;
  out.era = d.py ? "PyTorch backend (KvCacheCreator)" : "TensorRT engine (C++ KV cache manager)";
  out.fraction_name = "free_gpu_memory_fraction";
  // _torch/pyexecutor/_util.py @d8ae02ca KvCacheCreator: attention DP gives each TP rank its own
  // pool.
  out.kv_scope =
      a.enable_attention_dp ? KvScopeOf(a.pp, a.tp, true) : KvScopeOf(a.tp * a.pp, 1, false);
  out.fraction = d.fraction;
  out.fraction_user = a.free_gpu_memory_fraction.has_value();
  out.settings = DescribeTrtllmSettings(d, a);
  out.stages = DescribeTrtllmStages(d, t, c, b, k, a);
  out.gpu_total_bytes = t.total;
  out.post_load_free_bytes = b.free_after;
  out.weights_bytes_per_gpu = t.weights;
  out.rest_memory_bytes = b.available;
  out.cell_size_bytes = c.per_token;
  out.max_total_num_tokens = k.tokens;
  out.max_running_requests = d.max_batch_size;
  out.context_length = d.max_seq_len;
  out.figures = DescribeTrtllmFigures(d, t, b, k, a);
  // No bar of a GPU filled many times over when the weights do not load.
  if (!v.weights_too_large) out.memory = DescribeTrtllmMemory(t, c, k);
  DescribeTrtllmVerdict(model, d, b, k, v, a, &out);
  TrtllmRefuseDeepseekV4(model, d.release, &out);
  return out;
}

std::vector<std::string> TrtllmVersions() { return {"0.17.0", "0.21.0", "1.0.0", kTrtllmNewest}; }

}  // namespace kvplan
