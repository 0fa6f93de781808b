// Which attention kernel an engine runs for multi-token forwards over a KV
// cache (speculative verify, draft extend, chunked prefill), and the launch
// shape that decides how much of the GPU it can use.
#pragma once

#include <string>

#include "engines/sglang/attention_backend.h"

namespace kvplan {

enum class ExtendAttention {
  // FlashAttention-3, FlashMLA, FlashInfer, TRT-LLM: the KV cache is split
  // over thread blocks, so one request's attention spreads over the GPU.
  kSplitKv,
  // SGLang's Triton extend kernel: one thread block per (request, head,
  // BLOCK_M queries) loops over the whole prefix, its queries padded to BLOCK_M.
  kTritonPerHead,
};

// The kernel of the backend the user names (--attention-backend; "" = the
// engine's default, engines/sglang/attention_backend.h) for `mla` models on a
// GPU of `compute_capability` (x10): "triton" runs the per-head Triton extend
// kernel, every other backend splits the KV cache. Throws InputError for a
// backend SGLang does not have.
ExtendAttention SglangExtendAttention(int compute_capability, bool mla, const std::string& backend);

// BLOCK_M of SGLang's Triton extend kernel for a per-head query width (MLA
// 576), by compute capability
// (layers/attention/triton_ops/extend_attention.py
// _get_block_sizes_for_extend_attention, as of 2026-03, before PR #22079 gave
// SM100 its own branch).
int TritonExtendBlockM(int compute_capability, double qk_dim);

}  // namespace kvplan
