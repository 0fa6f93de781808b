#include "engines/sglang/attention_backend.h"

#include <algorithm>

#include "kvplan/error.h"

namespace kvplan {

const std::vector<std::string>& SglangAttentionBackends() {
  // server_args.py @v0.5.6 ATTENTION_BACKEND_CHOICES (the CUDA and ROCm ones).
  static const std::vector<std::string> kKnown = {
      "triton",     "torch_native", "flex_attention",
      "nsa",        "cutlass_mla",  "fa3",
      "fa4",        "flashinfer",   "flashmla",
      "trtllm_mla", "trtllm_mha",   "dual_chunk_flash_attn",
      "aiter",      "wave"};
  return kKnown;
}

void CheckSglangAttentionBackend(const std::string& backend) {
  const std::vector<std::string>& known = SglangAttentionBackends();
  if (backend.empty() || std::find(known.begin(), known.end(), backend) != known.end()) return;
  std::string list;
  for (const std::string& b : known) list += (list.empty() ? "" : ", ") + b;
  throw InputError("unknown SGLang --attention-backend '" + backend + "' (expected " + list + ")");
}

std::string SglangDefaultAttentionBackend(int cc, bool mla, const std::string& architecture) {
  // server_args.py @v0.5.14 _get_default_attn_backend: MLA models get fa3 on
  // Hopper, trtllm_mla on SM100 and triton on other CUDA GPUs; other models
  // fa3 on Hopper, trtllm_mha for GPT-OSS on SM100, else flashinfer. ROCm
  // (kvplan's compute capability 0) runs aiter.
  const bool sm100 = cc == 100 || cc == 103;
  if (cc <= 0) return "aiter";
  if (cc == 90) return "fa3";
  if (mla) return sm100 ? "trtllm_mla" : "triton";
  if (sm100 && architecture == "GptOssForCausalLM") return "trtllm_mha";
  return "flashinfer";
}

std::string SglangAttentionBackend(int cc, bool mla, const std::string& architecture,
                                   const std::string& backend) {
  CheckSglangAttentionBackend(backend);
  return backend.empty() ? SglangDefaultAttentionBackend(cc, mla, architecture) : backend;
}

}  // namespace kvplan
