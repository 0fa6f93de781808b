// Capture lists and rounding shared by several SGLang eras.
#include <cstdio>
#include <cstdlib>

#include "base/text.h"
#include "engines/sglang/era.h"
#include "engines/sglang/speculative.h"

namespace kvplan {

double PyRound(double x, int digits) {
  // glibc's printf rounds the exact binary value correctly (ties to even),
  // which is what CPython's round() does via _Py_dg_dtoa.
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, x);
  return std::strtod(buf, nullptr);
}

// python/sglang/srt/server_args.py @v0.5.3 _generate_cuda_graph_batch_sizes
std::vector<int64_t> SglangCaptureListV05(int64_t max_bs, bool speculative) {
  std::vector<int64_t> bs;
  auto range = [&bs](int64_t start, int64_t stop, int64_t step) {
    for (int64_t b = start; b < stop; b += step) bs.push_back(b);
  };
  if (speculative) {
    range(1, 9, 1);
    range(10, 33, 2);
    range(40, 65, 4);
    range(72, 257, 8);
    range(272, max_bs + 1, 16);
  } else {
    bs = {1, 2, 4, 8, 12};
    range(16, 257, 8);
    range(272, 512, 16);
    range(512, max_bs + 1, 32);
  }
  std::vector<int64_t> out;
  for (int64_t b : bs) {
    if (b <= max_bs) out.push_back(b);
  }
  return out;
}

// model_executor/cuda_graph_runner.py get_batch_sizes_to_capture (v0.4.6-v0.5.2)
std::vector<int64_t> SglangLegacyCaptureList(std::vector<int64_t> base, int64_t user_max_bs,
                                             bool pad) {
  if (user_max_bs <= 0) return base;
  std::vector<int64_t> kept;
  for (int64_t b : base) {
    if (b <= user_max_bs) kept.push_back(b);
  }
  if (pad) {
    const int64_t last = kept.empty() ? 1 : kept.back();
    for (int64_t b = last + 16; b <= user_max_bs; b += 16) kept.push_back(b);
  }
  return kept;
}

// python/sglang/srt/server_args.py (#15927, 2026-01-10) piecewise_cuda_graph_tokens
std::vector<int64_t> SglangPiecewiseTokens(int64_t max_tokens) {
  std::vector<int64_t> t;
  auto range = [&t, max_tokens](int64_t start, int64_t stop, int64_t step) {
    for (int64_t v = start; v < stop && v <= max_tokens; v += step) t.push_back(v);
  };
  range(4, 33, 4);
  range(48, 257, 16);
  range(288, 513, 32);
  range(576, 1025, 64);
  range(1280, 4097, 256);
  range(4608, max_tokens + 1, 512);
  return t;
}

std::vector<int64_t> SglangDecodeCaptureList(const std::string& version, const ModelSpec& model,
                                             int64_t gpu_mem_mib, const SglangArgs& args) {
  if (args.disable_cuda_graph) return {};
  std::string canonical;
  int64_t key = 0;
  const SglangEra& era = SglangEraFor(version, &canonical, &key);
  SglangDefaultsInput in;
  in.version = key;
  in.explain = false;
  in.args = &args;
  in.model = &model;
  in.gpu_mem_mib = gpu_mem_mib;
  in.is_mla = model.attention == AttentionKind::kMla;
  in.speculative = SglangHasDraft(ToUpper(args.speculative_algorithm));
  return era.defaults(in).capture_bs;
}

}  // namespace kvplan
