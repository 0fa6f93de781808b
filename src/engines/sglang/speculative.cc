#include "engines/sglang/speculative.h"

#include <fmt/core.h>

#include "base/text.h"
#include "engines/sglang/era.h"

namespace kvplan {

bool SglangHasDraft(const std::string& algorithm) {
  return !algorithm.empty() && algorithm != "NGRAM" && algorithm != "LOOKAHEAD";
}

namespace {

bool IsDeepseekFamily(const std::string& arch) {
  return arch.rfind("Deepseek", 0) == 0 || arch.rfind("DeepSeek", 0) == 0;
}

// (steps, topk, draft tokens) chosen by the release for this architecture.
SglangSpecParams AutoParams(int64_t version, const ModelSpec& model, const std::string& algo) {
  const std::string& arch = model.architecture;
  if (algo == "STANDALONE") return {3, 1, 4, "STANDALONE default (3, 1, 4)"};
  if (version >= SglangVersionKey(0, 5, 15)) {
    // arg_groups/speculative_hook.py @main 2026-08: (3, 1, 4) except Llama and Grok
    if (arch == "LlamaForCausalLM" || arch.rfind("Grok", 0) == 0) {
      return {5, 4, 8, fmt::format("{} default (5, 4, 8)", arch)};
    }
    return {3, 1, 4, "default (3, 1, 4)"};
  }
  if (version >= SglangVersionKey(0, 5, 5)) {
    // server_args.py @v0.5.5 auto_choose_speculative_params
    if (IsDeepseekFamily(arch) || arch == "GptOssForCausalLM" || arch.rfind("BailingMoe", 0) == 0) {
      return {3, 1, 4, fmt::format("{} default (3, 1, 4)", arch)};
    }
    return {5, 4, 8, "default (5, 4, 8)"};
  }
  if (version >= SglangVersionKey(0, 4, 9) && IsDeepseekFamily(arch)) {
    return {3, 1, 4, fmt::format("{} default (3, 1, 4)", arch)};  // server_args.py @v0.4.9
  }
  return {5, 4, 8, "default (5, 4, 8)"};
}

}  // namespace

SglangSpecParams SglangSpeculativeParams(int64_t version, const ModelSpec& model,
                                         const SglangArgs& a) {
  SglangSpecParams auto_p = AutoParams(version, model, a.speculative_algorithm);
  SglangSpecParams p;
  p.steps = a.speculative_num_steps.value_or(auto_p.steps);
  p.topk = a.speculative_eagle_topk.value_or(auto_p.topk);
  p.draft_tokens = a.speculative_num_draft_tokens.value_or(auto_p.draft_tokens);
  p.rule = auto_p.rule;
  // server_args.py (all modelled releases): with top-k 1 the draft is a chain.
  if (p.topk == 1 && p.draft_tokens != p.steps + 1) {
    p.draft_tokens = p.steps + 1;
    p.rule += "; top-k 1 sets num_draft_tokens = num_steps + 1";
  }
  return p;
}

bool SglangEagleWithEagle3Draft(const std::string& algorithm, const ModelSpec* draft) {
  return ToUpper(algorithm) == "EAGLE" && draft != nullptr &&
         draft->architecture.find("Eagle3") != std::string::npos;
}

}  // namespace kvplan
