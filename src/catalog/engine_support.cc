// FirstServingRelease and ServingBoundOf: tables, one row per (architecture, engine).
#include "catalog/engine_support.h"

#include <fmt/core.h>

#include <span>

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
    {"Llama4ForCausalLM", "vllm", {0, 8, 3, 0, "0.8.3", "vLLM #16104 (llama4.py)"}},
    // vLLM v0.8.4 release notes: "Support Qwen3 and Qwen3MoE (#15289)".
    {"Qwen3ForCausalLM", "vllm", {0, 8, 4, 0, "0.8.4", "vLLM #15289 (qwen3.py)"}},
    {"Qwen3MoeForCausalLM", "vllm", {0, 8, 4, 0, "0.8.4", "vLLM #15289 (qwen3_moe.py)"}},
    // vLLM model_executor/models/deepseek_v4.py arrived for the model's release (2026-04-24,
    // vllm-project/vllm#40778); it needs vLLM 0.20.0+ (vllm-project/vllm-gaudi#1722)
    // [inferred: the first release holding the file].
    {"DeepseekV4ForCausalLM", "vllm", {0, 20, 0, 0, "0.20.0", "vLLM #40778 (deepseek_v4.py)"}},
    // SGLang DeepSeek-V4 (#23882) reached main on 2026-05-07, after Gemma-4 (#21952,
    // 2026-04-02), which 0.5.9 predates: 0.5.10 at the earliest [inferred from the dates; the
    // row said 0.5.7, a release of early 2026].
    {"DeepseekV4ForCausalLM", "sglang", {0, 5, 10, 0, "0.5.10", "SGLang #23882"}},
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
    // ---- DeciLM (Nemotron-NAS) and MiMo-V2-Flash. ----
    // vLLM #15008 (opened 2025-03-18) moved DeciLMForCausalLM to nemotron_nas.py and made it
    // read block_configs (the older decilm.py read num_key_value_heads_per_layer only, so it
    // did not load these configs); v0.8.2 is the first release after [inferred from the date].
    {"DeciLMForCausalLM", "vllm", {0, 8, 2, 0, "0.8.2", "vLLM #15008 (nemotron_nas.py)"}},
    // SGLang refused DeciLMForCausalLM (sgl-project/sglang#4689, 2025-03-23) until #9067
    // (opened 2025-08-11, merged mid-August, after v0.5.0) ported nemotron_nas.py: 0.5.1
    // [inferred from the PR dates].
    {"DeciLMForCausalLM", "sglang", {0, 5, 1, 0, "0.5.1", "SGLang #9067 (nemotron_nas.py)"}},
    // vLLM #30836 (opened 2025-12-17) was on main after the v0.13.0 branch: vllm-ascend#5307
    // (2025-12-24, pinned to release/v0.13.0) patches the break it made on main. So 0.14.0
    // [inferred].
    {"MiMoV2FlashForCausalLM", "vllm", {0, 14, 0, 0, "0.14.0", "vLLM #30836 (mimo_v2_flash.py)"}},
    // SGLang #15207 (day-0 MiMo-V2-Flash, merged 2025-12-19, after 0.5.6.post2 of 2025-12-11;
    // ../shared/reference/sglang-memory.md): 0.5.7 [inferred: the next release].
    {"MiMoV2FlashForCausalLM", "sglang", {0, 5, 7, 0, "0.5.7", "SGLang #15207 (mimo_v2_flash.py)"}},
    // ---- vLLM: models added after 0.6.0, the oldest release kvplan models. ----
    // vLLM v0.6.1 release notes: Qwen2-VL (#7905).
    {"Qwen2VLForConditionalGeneration", "vllm", {0, 6, 1, 0, "0.6.1", "vLLM #7905 (qwen2_vl.py)"}},
    // olmoe.py (#7922, Sept 2024) [inferred: v0.6.1].
    {"OlmoeForCausalLM", "vllm", {0, 6, 1, 0, "0.6.1", "vLLM #7922 (olmoe.py)"}},
    // granitemoe.py (#8206, Sept 2024) [inferred: v0.6.2].
    {"GraniteMoeForCausalLM", "vllm", {0, 6, 2, 0, "0.6.2", "vLLM #8206 (granitemoe.py)"}},
    // olmo2.py (OLMo-2 of November 2024) [inferred: v0.6.5].
    {"Olmo2ForCausalLM", "vllm", {0, 6, 5, 0, "0.6.5", "vLLM olmo2.py (Nov 2024)"}},
    // vLLM v0.6.6 release notes: DeepSeek-V3 support (deepseek_v2.py serves V3).
    {"DeepseekV3ForCausalLM", "vllm", {0, 6, 6, 0, "0.6.6", "vLLM v0.6.6 (DeepSeek-V3)"}},
    // vLLM v0.7.2 release notes: Qwen2.5-VL (#12604).
    {"Qwen2_5_VLForConditionalGeneration",
     "vllm",
     {0, 7, 2, 0, "0.7.2", "vLLM #12604 (qwen2_5_vl.py)"}},
    // bamba.py (IBM Bamba, early 2025) [inferred: v0.7.3].
    {"BambaForCausalLM", "vllm", {0, 7, 3, 0, "0.7.3", "vLLM bamba.py (#10909)"}},
    // vLLM v0.8.0 release notes: Gemma 3 (#14660).
    {"Gemma3ForCausalLM", "vllm", {0, 8, 0, 0, "0.8.0", "vLLM #14660 (gemma3.py)"}},
    {"Gemma3ForConditionalGeneration", "vllm", {0, 8, 0, 0, "0.8.0", "vLLM #14660 (gemma3_mm.py)"}},
    // Mistral3ForConditionalGeneration, Mistral-Small-3.1 in Hugging Face format (#15505,
    // opened 2025-03-26) [inferred: v0.8.3].
    {"Mistral3ForConditionalGeneration",
     "vllm",
     {0, 8, 3, 0, "0.8.3", "vLLM #15505 (mistral3.py)"}},
    // kimi_vl.py (#16387, Kimi-VL of 2025-04-10) [inferred: v0.8.5].
    {"KimiVLForConditionalGeneration", "vllm", {0, 8, 5, 0, "0.8.5", "vLLM #16387 (kimi_vl.py)"}},
    // nemotron_h.py and granitemoehybrid.py (#17497), spring 2025 [inferred: v0.9.0].
    {"NemotronHForCausalLM", "vllm", {0, 9, 0, 0, "0.9.0", "vLLM nemotron_h.py"}},
    {"GraniteMoeHybridForCausalLM",
     "vllm",
     {0, 9, 0, 0, "0.9.0", "vLLM #17497 (granitemoehybrid.py)"}},
    // falcon_h1.py (#18406, May 2025) [inferred: v0.9.1].
    {"FalconH1ForCausalLM", "vllm", {0, 9, 1, 0, "0.9.1", "vLLM #18406 (falcon_h1.py)"}},
    // hunyuan_v1.py (Hunyuan-A13B, #20114) and ernie45*.py (#20220), both of early July 2025
    // [inferred: v0.9.2]; the dense Hunyuan V1 came later [inferred: v0.10.1].
    {"HunYuanMoEV1ForCausalLM", "vllm", {0, 9, 2, 0, "0.9.2", "vLLM #20114 (hunyuan_v1.py)"}},
    {"HunYuanDenseV1ForCausalLM", "vllm", {0, 10, 1, 0, "0.10.1", "vLLM hunyuan_v1.py (dense)"}},
    {"Ernie4_5_ForCausalLM", "vllm", {0, 9, 2, 0, "0.9.2", "vLLM #20220 (ernie45.py)"}},
    {"Ernie4_5ForCausalLM", "vllm", {0, 9, 2, 0, "0.9.2", "vLLM #20220 (ernie45.py)"}},
    {"Ernie4_5_MoeForCausalLM", "vllm", {0, 9, 2, 0, "0.9.2", "vLLM #20220 (ernie45_moe.py)"}},
    // vLLM v0.10.0 release notes: GLM-4.5 (#20736).
    {"Glm4MoeForCausalLM", "vllm", {0, 10, 0, 0, "0.10.0", "vLLM #20736 (glm4_moe.py)"}},
    // vLLM v0.10.2 release notes: Qwen3-Next (#24526).
    {"Qwen3NextForCausalLM", "vllm", {0, 10, 2, 0, "0.10.2", "vLLM #24526 (qwen3_next.py)"}},
    // vLLM v0.11.0 release notes: DeepSeek-V3.2-Exp (#25896), Qwen3-VL (#24727); OLMo-3's
    // olmo3.py (Sept 2025) [inferred: v0.11.0].
    {"DeepseekV32ForCausalLM", "vllm", {0, 11, 0, 0, "0.11.0", "vLLM #25896 (deepseek_v2.py)"}},
    {"Qwen3VLForConditionalGeneration",
     "vllm",
     {0, 11, 0, 0, "0.11.0", "vLLM #24727 (qwen3_vl.py)"}},
    {"Qwen3VLMoeForConditionalGeneration",
     "vllm",
     {0, 11, 0, 0, "0.11.0", "vLLM #24727 (qwen3_vl_moe.py)"}},
    {"Olmo3ForCausalLM", "vllm", {0, 11, 0, 0, "0.11.0", "vLLM olmo3.py"}},
    // qwen3_omni_moe_thinker.py (#25550) and minimax_m2.py (MiniMax-M2 of 2025-10-27), after
    // v0.11.0 [inferred: v0.11.1].
    {"Qwen3OmniMoeForConditionalGeneration",
     "vllm",
     {0, 11, 1, 0, "0.11.1", "vLLM #25550 (qwen3_omni_moe_thinker.py)"}},
    {"MiniMaxM2ForCausalLM", "vllm", {0, 11, 1, 0, "0.11.1", "vLLM minimax_m2.py"}},
    // Ministral3ForCausalLM (Mistral 3 of 2025-12-02) [inferred: v0.12.0].
    {"Ministral3ForCausalLM", "vllm", {0, 12, 0, 0, "0.12.0", "vLLM ministral3 (Mistral 3)"}},
    // GLM-4.7-Flash (2026-01-19) and Kimi-K2.5 (2026-01-27) [inferred: v0.15.0]; GLM-5
    // (2026-02-11) needed its own image while 0.15.1 was out (vllm-project/recipes#246)
    // [inferred: v0.16.0].
    {"Glm4MoeLiteForCausalLM", "vllm", {0, 15, 0, 0, "0.15.0", "vLLM glm4_moe_lite.py"}},
    {"KimiK25ForConditionalGeneration", "vllm", {0, 15, 0, 0, "0.15.0", "vLLM kimi_k25.py"}},
    {"GlmMoeDsaForCausalLM", "vllm", {0, 16, 0, 0, "0.16.0", "vLLM glm_moe_dsa (GLM-5)"}},
    // vLLM 0.16.0 refuses Qwen3_5MoeForConditionalGeneration in the registry's words and
    // 0.17.0 serves it (runpod-workers/worker-vllm#279, 2026-03-29).
    {"Qwen3_5ForConditionalGeneration", "vllm", {0, 17, 0, 0, "0.17.0", "vLLM qwen3_5.py"}},
    {"Qwen3_5MoeForConditionalGeneration", "vllm", {0, 17, 0, 0, "0.17.0", "vLLM qwen3_5.py"}},
    {"Qwen3_5MoeForCausalLM", "vllm", {0, 17, 0, 0, "0.17.0", "vLLM qwen3_5.py"}},
    // ---- SGLang: models added after 0.4.6 (2025-04-27), the oldest release kvplan models. ----
    // kimi_vl.py (Kimi-VL, spring 2025) [inferred: 0.4.7].
    {"KimiVLForConditionalGeneration", "sglang", {0, 4, 7, 0, "0.4.7", "SGLang kimi_vl.py"}},
    // hunyuan.py (Hunyuan-A13B, 2025-06-27) [inferred: 0.4.9]; the dense V1 later [inferred].
    {"HunYuanMoEV1ForCausalLM", "sglang", {0, 4, 9, 0, "0.4.9", "SGLang hunyuan.py"}},
    {"HunYuanDenseV1ForCausalLM", "sglang", {0, 5, 2, 0, "0.5.2", "SGLang hunyuan.py (dense)"}},
    // ernie4.py (ERNIE-4.5 of 2025-06-30) and glm4_moe.py (GLM-4.5 of 2025-07-28), after
    // 0.4.9 [inferred: 0.4.10].
    {"Ernie4_5_ForCausalLM", "sglang", {0, 4, 10, 0, "0.4.10", "SGLang ernie4.py"}},
    {"Ernie4_5ForCausalLM", "sglang", {0, 4, 10, 0, "0.4.10", "SGLang ernie4.py"}},
    {"Ernie4_5_MoeForCausalLM", "sglang", {0, 4, 10, 0, "0.4.10", "SGLang ernie4.py"}},
    {"Glm4MoeForCausalLM", "sglang", {0, 4, 10, 0, "0.4.10", "SGLang glm4_moe.py"}},
    // sgl-project/sglang#8833 ("gpt-oss Day 0 Support", 2025-08-05): the v0.5.0rc2 images.
    {"GptOssForCausalLM", "sglang", {0, 5, 0, 0, "0.5.0", "SGLang #8833 (gpt_oss.py, v0.5.0rc2)"}},
    // falcon_h1.py (summer 2025) [inferred: 0.5.2].
    {"FalconH1ForCausalLM", "sglang", {0, 5, 2, 0, "0.5.2", "SGLang falcon_h1.py"}},
    // v0.5.2 (2025-09-11) sizes the hybrid GDN pool of Qwen3-Next (../shared/reference/
    // sglang-memory.md, 1.2), the first release kvplan knows to serve it.
    {"Qwen3NextForCausalLM", "sglang", {0, 5, 2, 0, "0.5.2", "SGLang qwen3_next.py (v0.5.2)"}},
    // Day-0 Qwen3-VL (2025-09-23) and DeepSeek-V3.2 (2025-09-29): after 0.5.2's release
    // commit (2025-09-11) [inferred: 0.5.3].
    {"Qwen3VLForConditionalGeneration", "sglang", {0, 5, 3, 0, "0.5.3", "SGLang qwen3_vl.py"}},
    {"Qwen3VLMoeForConditionalGeneration",
     "sglang",
     {0, 5, 3, 0, "0.5.3", "SGLang qwen3_vl_moe.py"}},
    {"DeepseekV32ForCausalLM", "sglang", {0, 5, 3, 0, "0.5.3", "SGLang deepseek_v2.py (V3.2)"}},
    // granitemoehybrid.py (Granite-4.0 of 2025-10-02) [inferred: 0.5.4].
    {"GraniteMoeHybridForCausalLM", "sglang", {0, 5, 4, 0, "0.5.4", "SGLang granitemoehybrid.py"}},
    // qwen3_omni_moe.py and minimax_m2.py (MiniMax-M2 of 2025-10-27) [inferred: 0.5.5].
    {"Qwen3OmniMoeForConditionalGeneration",
     "sglang",
     {0, 5, 5, 0, "0.5.5", "SGLang qwen3_omni_moe.py"}},
    {"MiniMaxM2ForCausalLM", "sglang", {0, 5, 5, 0, "0.5.5", "SGLang minimax_m2.py"}},
    // OLMo-3 (2025-11-20) [inferred: 0.5.6]; Ministral 3 (2025-12-02) [inferred: 0.5.7].
    {"Olmo3ForCausalLM", "sglang", {0, 5, 6, 0, "0.5.6", "SGLang olmo2.py (Olmo3)"}},
    {"Ministral3ForCausalLM", "sglang", {0, 5, 7, 0, "0.5.7", "SGLang ministral3 (Mistral 3)"}},
    // GLM-4.7-Flash (2026-01-19) and Kimi-K2.5 (2026-01-27) [inferred: 0.5.8]; GLM-5
    // (2026-02-11) and Qwen3.5 (2026-02-16) [inferred: 0.5.9].
    {"Glm4MoeLiteForCausalLM", "sglang", {0, 5, 8, 0, "0.5.8", "SGLang glm4_moe_lite.py"}},
    {"KimiK25ForConditionalGeneration", "sglang", {0, 5, 8, 0, "0.5.8", "SGLang kimi_k25.py"}},
    {"GlmMoeDsaForCausalLM", "sglang", {0, 5, 9, 0, "0.5.9", "SGLang glm_moe_dsa (GLM-5)"}},
    {"Qwen3_5ForConditionalGeneration", "sglang", {0, 5, 9, 0, "0.5.9", "SGLang qwen3_5.py"}},
    {"Qwen3_5MoeForConditionalGeneration", "sglang", {0, 5, 9, 0, "0.5.9", "SGLang qwen3_5.py"}},
    {"Qwen3_5MoeForCausalLM", "sglang", {0, 5, 9, 0, "0.5.9", "SGLang qwen3_5.py"}},
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
    // vLLM #13185 "[MODEL] Add support for Zamba2 models" (models/zamba2.py, opened
    // 2025-02-13, still in review on 2025-02-25): first tagged in 0.8.0 [inferred from the
    // dates]. Served as a V1 hybrid from 0.10.0 (engines/vllm/hybrid.cc; the V1 guide of
    // vllm-project/vllm#20499, 2025-07-04, lists Zamba2ForCausalLM among its mamba hybrids).
    {"Zamba2ForCausalLM", "vllm", {0, 8, 0, 0, "0.8.0", "vLLM #13185 (zamba2.py)"}},
    // SGLang's python/sglang/srt/models holds no zamba2.py at any commit kvplan's sources
    // reach: no release serves it.
    {"Zamba2ForCausalLM", "sglang", kNoRelease},
    // vLLM #14323 "[Model] Add PLaMo2" (models/plamo2.py), merged 2025-04-16 as 3badb0213:
    // first tagged in v0.8.5 (v0.8.4 has no plamo2.py). V0 only until #23998 "[V1] v1 engine +
    // full CUDA graph support for PLaMo2" (2025-09-04, in v0.10.2; engines/vllm/hybrid.cc).
    {"Plamo2ForCausalLM", "vllm", {0, 8, 5, 0, "0.8.5", "vLLM #14323 (plamo2.py)"}},
    // SGLang's python/sglang/srt/models holds no plamo2.py (checked at a 2026-07-20 commit):
    // no release serves it.
    {"Plamo2ForCausalLM", "sglang", kNoRelease},
    // vLLM #6484 "[Model] Support Mamba" (models/mamba.py) landed on 2024-10-11 ("Mamba support
    // just landed", vllm-project/vllm#2001): 0.6.3, released that week [inferred from the date].
    {"MambaForCausalLM", "vllm", {0, 6, 3, 0, "0.6.3", "vLLM #6484 (mamba.py)"}},
    // vLLM v0.7.3 release notes: "Support Mamba2 (Codestral Mamba) (#9292)" (as quoted in
    // vllm-project/vllm#6479).
    {"Mamba2ForCausalLM", "vllm", {0, 7, 3, 0, "0.7.3", "vLLM #9292 (mamba2.py)"}},
    // ---- models5 ----
    // vLLM #9325 "[Model] FalconMamba Support" (approved 2024-10-20); on 2024-11-04 "Falcon
    // Mamba is available on current main but not in any release yet" (vllm-project/vllm#9980):
    // the next release, 0.6.4 [inferred from the dates].
    {"FalconMambaForCausalLM", "vllm", {0, 6, 4, 0, "0.6.4", "vLLM #9325 (mamba.py)"}},
    // GLM-4.5V (2025-08-11): "The latest vLLM release (v0.10.0) does not support GLM-4.5V ...
    // Support has been added in the HEAD version" (gpustack/gpustack#2730, 2025-08-15): the
    // next release, 0.10.1 [inferred].
    {"Glm4vMoeForConditionalGeneration",
     "vllm",
     {0, 10, 1, 0, "0.10.1", "vLLM glm4_1v.py (GLM-4.5V)"}},
};

struct EarlierRow {
  std::string_view architecture;
  std::string_view engine;
  std::string_view source;  // the release or model file that served it first
};

// Architectures each engine served before the oldest release kvplan models (vLLM 0.6.0 of
// 2024-09-04, engines/vllm/release.cc; SGLang 0.4.6 of 2025-04-27, engines/sglang/versions.cc):
// no release kvplan plans refuses them.
// kvplan: data table
constexpr EarlierRow kServedByEveryModelledRelease[] = {
    // ---- vLLM before 0.6.0 (model_executor/models/__init__.py's registry at v0.6.0). ----
    {"LlamaForCausalLM", "vllm", "llama.py (v0.1)"},
    {"MistralForCausalLM", "vllm", "llama.py (v0.2)"},
    {"Qwen2ForCausalLM", "vllm", "qwen2.py (v0.3)"},
    {"Phi3ForCausalLM", "vllm", "llama.py (v0.4.1)"},
    {"GraniteForCausalLM", "vllm", "granite.py (#7436, v0.5.5)"},
    {"GemmaForCausalLM", "vllm", "gemma.py (v0.3)"},
    {"Gemma2ForCausalLM", "vllm", "gemma2.py (v0.5.1)"},
    {"MixtralForCausalLM", "vllm", "mixtral.py (v0.2.4)"},
    {"Qwen2MoeForCausalLM", "vllm", "qwen2_moe.py (v0.4.0)"},
    {"DeepseekV2ForCausalLM", "vllm", "deepseek_v2.py (v0.4.3)"},
    {"DeepseekForCausalLM", "vllm", "deepseek.py (v0.3)"},
    {"InternLM2ForCausalLM", "vllm", "internlm2.py (v0.3)"},
    {"CohereForCausalLM", "vllm", "commandr.py (v0.4.0)"},
    {"StableLmForCausalLM", "vllm", "stablelm.py (v0.3)"},
    {"GPTNeoXForCausalLM", "vllm", "gpt_neox.py (v0.1)"},
    {"GPTJForCausalLM", "vllm", "gpt_j.py (v0.1)"},
    {"GPT2LMHeadModel", "vllm", "gpt2.py (v0.1)"},
    {"OPTForCausalLM", "vllm", "opt.py (v0.1)"},
    {"PhiForCausalLM", "vllm", "phi.py (v0.2)"},
    {"MiniCPMForCausalLM", "vllm", "minicpm.py (v0.3)"},
    {"ChatGLMModel", "vllm", "chatglm.py (v0.2)"},
    {"ExaoneForCausalLM", "vllm", "exaone.py (Aug 2024, v0.5.5) [inferred]"},
    {"Starcoder2ForCausalLM", "vllm", "starcoder2.py (v0.3)"},
    {"BloomForCausalLM", "vllm", "bloom.py (v0.1)"},
    {"JambaForCausalLM", "vllm", "jamba.py (v0.4.2)"},
    {"LlavaForConditionalGeneration", "vllm", "llava.py (v0.3)"},
    {"LlavaNextForConditionalGeneration", "vllm", "llava_next.py (v0.4.2)"},
    {"InternVLChatModel", "vllm", "internvl.py (v0.5.4)"},
    {"Phi3VForCausalLM", "vllm", "phi3v.py (v0.4.3)"},
    // ---- SGLang before 0.4.6 (python/sglang/srt/models/ at v0.4.6). ----
    {"LlamaForCausalLM", "sglang", "llama.py"},
    {"MistralForCausalLM", "sglang", "mistral.py"},
    {"Qwen2ForCausalLM", "sglang", "qwen2.py"},
    {"Qwen3ForCausalLM", "sglang", "qwen3.py (#4693, before Qwen3's 2025-04-29 release)"},
    {"Qwen3MoeForCausalLM", "sglang", "qwen3_moe.py (#4693)"},
    {"Phi3ForCausalLM", "sglang", "llama.py (Phi3ForCausalLM)"},
    {"GraniteForCausalLM", "sglang", "granite.py (2024)"},
    {"GraniteMoeForCausalLM", "sglang", "granitemoe.py (early 2025)"},
    {"Olmo2ForCausalLM", "sglang", "olmo2.py (Dec 2024)"},
    {"OlmoeForCausalLM", "sglang", "olmoe.py (2024)"},
    {"GemmaForCausalLM", "sglang", "gemma.py"},
    {"Gemma2ForCausalLM", "sglang", "gemma2.py"},
    {"Gemma3ForCausalLM", "sglang", "gemma3_causal.py (v0.4.4)"},
    {"Gemma3ForConditionalGeneration", "sglang", "gemma3_mm.py (v0.4.4)"},
    {"MixtralForCausalLM", "sglang", "mixtral.py"},
    {"Qwen2MoeForCausalLM", "sglang", "qwen2_moe.py"},
    {"DeepseekV2ForCausalLM", "sglang", "deepseek_v2.py"},
    {"DeepseekV3ForCausalLM", "sglang", "deepseek_v2.py (v0.4.1, Dec 2024)"},
    {"DeepseekForCausalLM", "sglang", "deepseek.py"},
    {"Llama4ForConditionalGeneration", "sglang", "mllama4.py (v0.4.5, 2025-04-05)"},
    {"Llama4ForCausalLM", "sglang", "llama4.py (v0.4.5)"},
    {"Qwen2VLForConditionalGeneration", "sglang", "qwen2_vl.py (2024)"},
    {"Qwen2_5_VLForConditionalGeneration", "sglang", "qwen2_5_vl.py (Feb 2025)"},
    {"InternLM2ForCausalLM", "sglang", "internlm2.py"},
    {"CohereForCausalLM", "sglang", "commandr.py"},
    {"StableLmForCausalLM", "sglang", "stablelm.py"},
    {"MiniCPMForCausalLM", "sglang", "minicpm.py"},
    {"ChatGLMModel", "sglang", "chatglm.py"},
    {"ExaoneForCausalLM", "sglang", "exaone.py (2024)"},
    {"LlamaForCausalLMEagle", "sglang", "llama_eagle.py (v0.4.1)"},
    {"LlamaForCausalLMEagle3", "sglang", "llama_eagle3.py (v0.4.4)"},
};

// Architectures kvplan does not gate under an engine, and why: the engine names the model
// otherwise, or the release that added its model file was not found (a planned launch of an
// older release may then be one the engine refuses).
// kvplan: data table
constexpr EarlierRow kNotGated[] = {
    // vLLM's --speculative-config gives an EAGLE draft its own architecture
    // (config/speculative.py rewrites the draft's hf_config), so the draft's name is never
    // looked up in the registry; SGLang looks the other two names up, so they have no row.
    {"LlamaForCausalLMEagle", "vllm", "EAGLE draft: renamed by --speculative-config"},
    {"EagleLlamaForCausalLM", "vllm", "EAGLE draft: renamed by --speculative-config"},
    {"LlamaForCausalLMEagle3", "vllm", "EAGLE-3 draft: renamed by --speculative-config"},
    {"Eagle3LlamaForCausalLM", "vllm", "EAGLE-3 draft: renamed by --speculative-config"},
    {"EagleLlamaForCausalLM", "sglang",
     "vLLM's EAGLE name; SGLang drafts say LlamaForCausalLMEagle"},
    {"Eagle3LlamaForCausalLM", "sglang", "vLLM's name; SGLang drafts say LlamaForCausalLMEagle3"},
    // kvplan's own name for Kimi-K2 (its hub configs say DeepseekV3ForCausalLM).
    {"KimiK2ForCausalLM", "vllm", "no hub config names it"},
    {"KimiK2ForCausalLM", "sglang", "no hub config names it"},
    // vLLM: the release that added the model file was not found.
    {"SmolLM3ForCausalLM", "vllm",
     "SmolLM3 (July 2025): native file or Transformers backend not checked"},
    // SGLang: model files whose first release was not found, and models SGLang has no file for
    // (served, if at all, by its Transformers fallback).
    {"GPTNeoXForCausalLM", "sglang", "gpt_neox.py at main: first release not found"},
    {"GPTJForCausalLM", "sglang", "gpt_j.py at main: first release not found"},
    {"GPT2LMHeadModel", "sglang", "gpt2.py at main: first release not found"},
    {"OPTForCausalLM", "sglang", "opt.py at main: first release not found"},
    {"PhiForCausalLM", "sglang", "phi.py at main: first release not found"},
    {"Starcoder2ForCausalLM", "sglang", "starcoder2.py at main: first release not found"},
    {"JambaForCausalLM", "sglang", "jamba.py at main: first release not found"},
    {"BambaForCausalLM", "sglang", "bamba.py at main: first release not found"},
    {"SmolLM3ForCausalLM", "sglang", "SmolLM3 (July 2025): first release not found"},
    {"Mistral3ForConditionalGeneration", "sglang", "Mistral-Small-3.1 (spring 2025): not found"},
    {"InternVLChatModel", "sglang", "internvl.py (spring 2025): first release not found"},
    {"LlavaForConditionalGeneration", "sglang", "llava.py: this name's first release not found"},
    {"LlavaNextForConditionalGeneration", "sglang", "no SGLang model file registers this name"},
    {"Phi3VForCausalLM", "sglang", "no SGLang model file (phi4mm.py is Phi-4-multimodal)"},
    {"BloomForCausalLM", "sglang", "no SGLang model file (no models/bloom.py)"},
    // SGLang's models/mamba.py and mamba2.py exist at its 2026 main; the release that added
    // them was not found (kvplan refuses these under SGLang as not modelled in any case).
    {"MambaForCausalLM", "sglang", "mamba.py at main: first release not found"},
    {"Mamba2ForCausalLM", "sglang", "mamba2.py at main: first release not found"},
    {"FalconMambaForCausalLM", "sglang", "FalconMamba: no SGLang model file for it was found"},
    {"Glm4vMoeForConditionalGeneration", "sglang",
     "glm4v_moe.py (GLM-4.5V, Aug 2025): first release not found"},
};

template <typename Row>
const Row* FindRow(std::span<const Row> rows, std::string_view architecture,
                   std::string_view engine) {
  for (const Row& r : rows) {
    if (r.architecture == architecture && r.engine == engine) return &r;
  }
  return nullptr;
}

}  // namespace

std::optional<ServingBound> ServingBoundOf(std::string_view architecture, std::string_view engine) {
  if (const ServedRow* r = FindRow<ServedRow>(kServedFrom, architecture, engine)) {
    return ServingBound{ServingBound::Kind::kFirstRelease, r->first.source};
  }
  if (const EarlierRow* r =
          FindRow<EarlierRow>(kServedByEveryModelledRelease, architecture, engine)) {
    return ServingBound{ServingBound::Kind::kEveryModelledRelease, r->source};
  }
  if (const EarlierRow* r = FindRow<EarlierRow>(kNotGated, architecture, engine)) {
    return ServingBound{ServingBound::Kind::kNotGated, r->source};
  }
  return std::nullopt;
}

std::vector<ServingBoundRow> ServingBoundRows() {
  std::vector<ServingBoundRow> out;
  for (const ServedRow& r : kServedFrom) {
    out.push_back({r.architecture, r.engine, ServingBound::Kind::kFirstRelease});
  }
  for (const EarlierRow& r : kServedByEveryModelledRelease) {
    out.push_back({r.architecture, r.engine, ServingBound::Kind::kEveryModelledRelease});
  }
  for (const EarlierRow& r : kNotGated) {
    out.push_back({r.architecture, r.engine, ServingBound::Kind::kNotGated});
  }
  return out;
}

std::optional<ServingRelease> FirstServingRelease(std::string_view architecture,
                                                  std::string_view engine) {
  const ServedRow* r = FindRow<ServedRow>(kServedFrom, architecture, engine);
  if (r == nullptr) return std::nullopt;
  return r->first;
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
