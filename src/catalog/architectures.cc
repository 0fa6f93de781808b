#include "catalog/architectures.h"

#include "catalog/model.h"

namespace kvplan {
namespace {

constexpr ArchitectureInfo kArchitectures[] = {
    {"LlamaForCausalLM", "llama", "llama", ModelFamily::kDense},
    {"MistralForCausalLM", "mistral", "mistral", ModelFamily::kDense},
    {"Qwen2ForCausalLM", "qwen2", "qwen2", ModelFamily::kDense},
    {"Qwen3ForCausalLM", "qwen3", "qwen3", ModelFamily::kDense},
    {"MixtralForCausalLM", "mixtral", "mixtral", ModelFamily::kMoe},
    {"Qwen2MoeForCausalLM", "qwen2_moe", "qwen2_moe", ModelFamily::kMoe},
    {"Qwen3MoeForCausalLM", "qwen3_moe", "qwen3_moe", ModelFamily::kMoe},
    {"Glm4MoeForCausalLM", "glm4_moe", "glm4_moe", ModelFamily::kMoe},
    {"DeepseekV2ForCausalLM", "deepseek_v2", "deepseek", ModelFamily::kDeepseek},
    {"DeepseekV3ForCausalLM", "deepseek_v3", "deepseek", ModelFamily::kDeepseek},
    {"DeepseekV32ForCausalLM", "deepseek_v32", "deepseek", ModelFamily::kDeepseek},
    {"KimiK2ForCausalLM", "kimi_k2", "deepseek", ModelFamily::kDeepseek},
    {"GptOssForCausalLM", "gpt_oss", "gpt_oss", ModelFamily::kGptOss},
    {"Gemma2ForCausalLM", "gemma2", "gemma2", ModelFamily::kGemma2},
    {"Gemma3ForCausalLM", "gemma3_text", "gemma3", ModelFamily::kGemma3},
    {"Gemma3ForConditionalGeneration", "gemma3", "gemma3", ModelFamily::kGemma3},
    {"Qwen3NextForCausalLM", "qwen3_next", "qwen3_next", ModelFamily::kQwen3Next},
    {"Llama4ForConditionalGeneration", "llama4", "llama4", ModelFamily::kLlama4},
    {"Llama4ForCausalLM", "llama4_text", "llama4", ModelFamily::kLlama4},
    {"LlamaForCausalLMEagle", "", "eagle", ModelFamily::kEagle},
    {"EagleLlamaForCausalLM", "", "eagle", ModelFamily::kEagle},
    {"LlamaForCausalLMEagle3", "", "eagle3", ModelFamily::kEagle3},
    {"Eagle3LlamaForCausalLM", "", "eagle3", ModelFamily::kEagle3},
};

}  // namespace

const ArchitectureInfo* FindArchitecture(std::string_view architecture) {
  for (const ArchitectureInfo& a : kArchitectures) {
    if (architecture == a.architecture) return &a;
  }
  return nullptr;
}

const ArchitectureInfo* FindArchitectureByModelType(std::string_view model_type) {
  if (model_type.empty()) return nullptr;
  for (const ArchitectureInfo& a : kArchitectures) {
    if (model_type == a.model_type) return &a;
  }
  return nullptr;
}

const std::vector<std::string>& SupportedArchitectures() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const ArchitectureInfo& a : kArchitectures) names.emplace_back(a.architecture);
    return names;
  }();
  return kNames;
}

}  // namespace kvplan
