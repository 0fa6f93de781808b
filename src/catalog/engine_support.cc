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

// An architecture no release of the engine serves (as far as kvplan's sources reach).
constexpr ServingRelease kNoRelease = {
    kNoServingRelease, 0, 0, 0, "no release", "no model file for it in the engine's main branch"};

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
    // ---- lfm2mm ----
    // vLLM "[Model] Add LFM2 architecture" (#22845, 2025-08-21): first tagged in v0.10.2.
    {"Lfm2ForCausalLM", "vllm", {0, 10, 2, 0, "0.10.2", "vLLM #22845 (lfm2.py)"}},
    // SGLang "Add Liquid Foundation Model (LFM2)" (#16890, merged 2026-01-22), after
    // 0.5.6.post2 (2025-12-11): 0.5.8 [inferred: the release dates of 0.5.7 and 0.5.8 were
    // not checked].
    {"Lfm2ForCausalLM", "sglang", {0, 5, 8, 0, "0.5.8", "SGLang #16890 (lfm2.py)"}},
    // vLLM "[Model][MiniMaxText01] Support MiniMaxText01 model inference" (#13454,
    // 2025-04-02): first tagged in v0.8.3; MiniMaxM1ForCausalLM joins the registry in v0.9.2.
    {"MiniMaxText01ForCausalLM", "vllm", {0, 8, 3, 0, "0.8.3", "vLLM #13454 (minimax_text_01.py)"}},
    {"MiniMaxM1ForCausalLM",
     "vllm",
     {0, 9, 2, 0, "0.9.2", "vLLM registry.py (minimax_text_01.py)"}},
    // SGLang main of 2026-08-11 has no model file for either (models/ holds minimax_m2.py and
    // minimax_m3.py only): no release serves them.
    {"MiniMaxText01ForCausalLM", "sglang", kNoRelease},
    {"MiniMaxM1ForCausalLM", "sglang", kNoRelease},
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
  if (first.major == kNoServingRelease) {
    return fmt::format(
        "ValueError: Model architectures ['{}'] are not supported for now. (kvplan: {} {} does "
        "not serve it, nor does any release: {})",
        architecture, engine, release, first.source);
  }
  return fmt::format(
      "ValueError: Model architectures ['{}'] are not supported for now. (kvplan: {} {} does not "
      "serve it; it was added in {}, {})",
      architecture, engine, release, first.text, first.source);
}

}  // namespace kvplan
