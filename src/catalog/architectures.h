// The model families kvplan understands, keyed by config.json architectures[0]
// (or model_type when architectures is absent). Anything else is refused by
// name rather than guessed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

enum class ModelFamily {
  kDense,      // Llama, Mistral, Qwen2, Qwen3: GQA + dense MLP
  kMoe,        // Mixtral, Qwen2-MoE, Qwen3-MoE, GLM-4.5: GQA + routed experts
  kDeepseek,   // DeepSeek-V2/V3/V3.2, Kimi-K2: MLA + MoE with shared experts
  kGptOss,     // gpt-oss: alternating sliding/full GQA with sinks, mxfp4 experts
  kGemma2,     // Gemma-2: alternating sliding/full, 4 norms per layer
  kGemma3,     // Gemma-3 (text or ForConditionalGeneration with a SigLIP tower)
  kQwen3Next,  // Qwen3-Next: gated delta-net linear layers + gated full attention
  kLlama4,     // Llama-4: chunked local attention on 3 of 4 layers, MoE + shared expert
  kEagle,      // EAGLE-1/2 Llama draft
  kEagle3,     // EAGLE-3 Llama draft
};

struct ArchitectureInfo {
  const char* architecture;  // architectures[0]
  const char* model_type;    // the matching model_type
  const char* family_name;   // ModelSpec::family
  ModelFamily family;
};

// nullptr when unsupported.
const ArchitectureInfo* FindArchitecture(std::string_view architecture);
const ArchitectureInfo* FindArchitectureByModelType(std::string_view model_type);

}  // namespace kvplan
