// Which attention kernel an engine runs for multi-token forwards over a KV
// cache (speculative verify, draft extend, chunked prefill), and the launch
// shape that decides how much of the GPU it can use.
#pragma once

#include <string>

namespace kvplan {

enum class ExtendAttention {
  // FlashAttention-3, FlashMLA, FlashInfer, TRT-LLM: the KV cache is split
  // over thread blocks, so one request's attention spreads over the GPU.
  kSplitKv,
  // SGLang's Triton extend kernel: one thread block per (request, head,
  // BLOCK_M queries) loops over the whole prefix, its queries padded to BLOCK_M.
  kTritonPerHead,
};

// The kernel SGLang's default attention backend uses for `mla` models on a GPU
// of `compute_capability` (x10), or for the backend the user names
// (--attention-backend; "" = default). server_args.py @v0.5.14
// _get_default_attn_backend: MLA models get fa3 on Hopper (90), trtllm_mla on
// SM100 and "triton" on every other GPU (SM8x, SM120); non-MLA models get fa3
// or FlashInfer, both split-KV. Throws InputError for a backend SGLang does not have.
ExtendAttention SglangExtendAttention(int compute_capability, bool mla, const std::string& backend);

// Throws InputError unless `backend` is "" or one of SGLang's --attention-backend choices
// (server_args.py @v0.5.6 ATTENTION_BACKEND_CHOICES, the CUDA and ROCm ones).
void CheckSglangAttentionBackend(const std::string& backend);

// BLOCK_M of SGLang's Triton extend kernel for a per-head query width (MLA
// 576), by compute capability
// (layers/attention/triton_ops/extend_attention.py
// _get_block_sizes_for_extend_attention, as of 2026-03, before PR #22079 gave
// SM100 its own branch).
int TritonExtendBlockM(int compute_capability, double qk_dim);

}  // namespace kvplan
