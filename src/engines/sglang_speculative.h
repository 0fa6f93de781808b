// SGLang's speculative-decoding parameters when the user leaves them unset.
#pragma once

#include <cstdint>
#include <string>

#include "engines/sglang.h"

namespace kvplan {

struct SglangSpecParams {
  int64_t steps = 0;
  int64_t topk = 0;
  int64_t draft_tokens = 0;
  std::string rule;  // how the values were chosen
};

// True for the algorithms that run a draft model (not NGRAM or LOOKAHEAD).
bool SglangHasDraft(const std::string& algorithm);

// server_args.py auto_choose_speculative_params, release by release, then the
// top-k 1 rule (num_draft_tokens = num_steps + 1).
SglangSpecParams SglangSpeculativeParams(int64_t version, const ModelSpec& model,
                                         const SglangArgs& args);

}  // namespace kvplan
