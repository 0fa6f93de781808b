// SGLang's speculative-decoding parameters when the user leaves them unset.
#pragma once

#include <cstdint>
#include <string>

#include "engines/sglang/sglang.h"

namespace kvplan {

struct SglangSpecParams {
  int64_t steps = 0;
  int64_t topk = 0;
  int64_t draft_tokens = 0;
  std::string rule;  // how the values were chosen
};

// True for the algorithms that run a draft model (not NGRAM or LOOKAHEAD).
bool SglangHasDraft(const std::string& algorithm);

// True when `algorithm` is EAGLE but the draft is an EAGLE-3 head
// (architecture *Eagle3*): SGLang then feeds the draft one layer's hidden
// state instead of three and accepts nothing (sglang PR #21272, closed
// unmerged 2026-03; nothing in server_args.py catches it).
bool SglangEagleWithEagle3Draft(const std::string& algorithm, const ModelSpec* draft);

// server_args.py auto_choose_speculative_params, release by release, then the
// top-k 1 rule (num_draft_tokens = num_steps + 1).
SglangSpecParams SglangSpeculativeParams(int64_t version, const ModelSpec& model,
                                         const SglangArgs& args);

}  // namespace kvplan
