// FirstServingRelease: a table, one row per (architecture, engine).
#include "catalog/engine_support.h"

#include <fmt/core.h>

namespace kvplan {
namespace {

struct ServedRow {
  std::string_view architecture;
  std::string_view engine;
  ServingRelease first;
};

// kvplan: data table
constexpr ServedRow kServedFrom[] = {
    // vLLM v0.8.3 release notes: "Day 0 Support for Llama 4 Scout and Maverick (#16104)".
    {"Llama4ForConditionalGeneration", "vllm", {0, 8, 3, 0, "0.8.3", "vLLM #16104 (llama4.py)"}},
    // vLLM v0.8.4 release notes: "Support Qwen3 and Qwen3MoE (#15289)".
    {"Qwen3ForCausalLM", "vllm", {0, 8, 4, 0, "0.8.4", "vLLM #15289 (qwen3.py)"}},
    {"Qwen3MoeForCausalLM", "vllm", {0, 8, 4, 0, "0.8.4", "vLLM #15289 (qwen3_moe.py)"}},
    // vLLM model_executor/models/deepseek_v4.py arrived for the model's release (2026-04-24,
    // vllm-project/vllm#40778); it needs vLLM 0.20.0+ (vllm-project/vllm-gaudi#1722)
    // [inferred: the first release holding the file].
    {"DeepseekV4ForCausalLM", "vllm", {0, 20, 0, 0, "0.20.0", "vLLM #40778 (deepseek_v4.py)"}},
    // SGLang DeepSeek-V4 (#23882) reached main on 2026-05-07: 0.5.7 [inferred from the date].
    {"DeepseekV4ForCausalLM", "sglang", {0, 5, 7, 0, "0.5.7", "SGLang #23882"}},
    // vLLM v0.10.1 release notes: "New model families: GPT-OSS (#22327, ...)".
    {"GptOssForCausalLM", "vllm", {0, 10, 1, 0, "0.10.1", "vLLM #22327 (gpt_oss.py)"}},
    // models/kimi_linear.py arrived with vllm-project/vllm#27654 (opened 2025-10-28), after
    // 0.11.0 [inferred: the next release, 0.11.1].
    {"KimiLinearForCausalLM", "vllm", {0, 11, 1, 0, "0.11.1", "vLLM #27654 (kimi_linear.py)"}},
    // vLLM #20134 (2025-06-26, vllm/model_executor/models/gemma3n.py, text only), in v0.9.2.
    {"Gemma3nForConditionalGeneration", "vllm", {0, 9, 2, 0, "0.9.2", "vLLM #20134 (gemma3n.py)"}},
    {"Gemma3nForCausalLM", "vllm", {0, 9, 2, 0, "0.9.2", "vLLM #20134 (gemma3n.py)"}},
    // vLLM v0.19.0 release notes: "Gemma 4 support" (#38826, gemma4.py; transformers >= 5.5).
    {"Gemma4ForConditionalGeneration", "vllm", {0, 19, 0, 0, "0.19.0", "vLLM #38826 (gemma4.py)"}},
    {"Gemma4ForCausalLM", "vllm", {0, 19, 0, 0, "0.19.0", "vLLM #38826 (gemma4.py)"}},
    // SGLang gemma3n_causal.py / gemma3n_mm.py arrived with Gemma-3n (2025-06-26), after
    // 0.4.7.post1 (#8240 of July 2025 already fixes them under hybrid SWA): the bound is
    // the first release of that week, 0.4.8.post1.
    {"Gemma3nForConditionalGeneration",
     "sglang",
     {0, 4, 8, 1, "0.4.8.post1", "SGLang gemma3n_mm.py (2025-06-26)"}},
    {"Gemma3nForCausalLM", "sglang", {0, 4, 8, 1, "0.4.8.post1", "SGLang gemma3n_causal.py"}},
    // SGLang #21952 "[New Model] Gemma 4" (merged 2026-04-02, gemma4_causal.py), after
    // 0.5.9: the next release, 0.5.10.
    {"Gemma4ForConditionalGeneration", "sglang", {0, 5, 10, 0, "0.5.10", "SGLang #21952"}},
    {"Gemma4ForCausalLM", "sglang", {0, 5, 10, 0, "0.5.10", "SGLang #21952"}},
    // SGLang models/nemotron_h.py arrived with PR #10909 (opened 2025-09-25), after v0.5.3's
    // release commit (2025-10-06); its NVFP4 follow-up #11866 was reverted on 2025-10-23:
    // so 0.5.4 [inferred from the PR dates].
    {"NemotronHForCausalLM", "sglang", {0, 5, 4, 0, "0.5.4", "SGLang #10909 (nemotron_h.py)"}},
    // SGLang models/kimi_linear.py arrived with PR #12469 (opened 2025-10-31), after 0.5.3;
    // planned from 0.5.5, the next release kvplan models [inferred: merge date not checked].
    {"KimiLinearForCausalLM", "sglang", {0, 5, 5, 0, "0.5.5", "SGLang #12469 (kimi_linear.py)"}},
    // vLLM #6484 "[Model] Support Mamba" (models/mamba.py) landed on 2024-10-11 ("Mamba support
    // just landed", vllm-project/vllm#2001): 0.6.3, released that week [inferred from the date].
    {"MambaForCausalLM", "vllm", {0, 6, 3, 0, "0.6.3", "vLLM #6484 (mamba.py)"}},
    // vLLM v0.7.3 release notes: "Support Mamba2 (Codestral Mamba) (#9292)" (as quoted in
    // vllm-project/vllm#6479).
    {"Mamba2ForCausalLM", "vllm", {0, 7, 3, 0, "0.7.3", "vLLM #9292 (mamba2.py)"}},
};

}  // namespace

std::optional<ServingRelease> FirstServingRelease(std::string_view architecture,
                                                  std::string_view engine) {
  for (const ServedRow& r : kServedFrom) {
    if (r.architecture == architecture && r.engine == engine) return r.first;
  }
  return std::nullopt;
}

std::string UnservedArchitectureError(std::string_view engine, std::string_view release,
                                      std::string_view architecture, const ServingRelease& first) {
  return fmt::format(
      "ValueError: Model architectures ['{}'] are not supported for now. (kvplan: {} {} does not "
      "serve it; it was added in {}, {})",
      architecture, engine, release, first.text, first.source);
}

}  // namespace kvplan
