#include "engines/sglang/reserve.h"

#include <algorithm>

#include <fmt/core.h>

namespace kvplan {

// python/sglang/srt/server_args.py @v0.5.3 _handle_gpu_memory_settings: metadata term
void SglangReserve::AddMetadata() { Add(512, "constant metadata"); }

// python/sglang/srt/server_args.py @v0.5.3 _handle_gpu_memory_settings: activation term;
// ServerArgs.max_prefill_tokens defaults to 16384.
void SglangReserve::AddActivation(const SglangDefaults& d, const SglangArgs& a) {
  const int64_t max_prefill_tokens = a.max_prefill_tokens.value_or(16384);
  const int64_t tokens = d.chunked_prefill_size > 0
                             ? std::max<int64_t>(d.chunked_prefill_size, 2048)
                             : std::max<int64_t>(max_prefill_tokens, 2048);
  Add(tokens * 1.5, "activations {} tokens * 1.5", tokens);
}

// python/sglang/srt/server_args.py @v0.5.3 _handle_gpu_memory_settings: parallelism term
void SglangReserve::AddParallelism(const SglangArgs& a) {
  Add(a.tp * a.pp / 8.0 * 1024, "tp*pp {} / 8 * 1024", a.tp * a.pp);
}

// python/sglang/srt/server_args.py @v0.5.3: DP-attention graph buffers
void SglangReserve::AddDpAttention(const SglangArgs& a, int64_t cuda_graph_max_bs) {
  if (!a.enable_dp_attention) return;
  Add(static_cast<double>(cuda_graph_max_bs) * a.dp * 3, "dp attention bs {} * dp {} * 3",
      cuda_graph_max_bs, a.dp);
  if (cuda_graph_max_bs > 300) {
    Add(static_cast<double>(cuda_graph_max_bs) * a.dp * 1.5, "dp attention bs > 300");
  }
}

// python/sglang/srt/server_args.py @v0.5.3: if gpu_mem > 60 GiB, reserved >= 10 GiB
void SglangReserve::FloorLargeCard(int64_t gpu_mem_mib) {
  if (gpu_mem_mib > 60 * 1024 && total_ < 10 * 1024) {
    total_ = 10 * 1024;
    if (!explain_) return;
    std::string sum;
    for (const std::string& t : terms_) sum += (sum.empty() ? "" : " + ") + t;
    terms_ = {fmt::format("max({}, 10240 floor for >60 GiB cards)", sum)};
  }
}

bool SglangFractionNeedsNoRule(const SglangDefaultsInput& in, SglangDefaults* d) {
  if (in.args->mem_fraction_static) {
    d->mem_fraction_static = *in.args->mem_fraction_static;
    return true;
  }
  if (in.gpu_mem_mib == 0) {
    d->mem_fraction_static = 0.88;
    d->mem_fraction_rule = "GPU capacity unknown -> 0.88";
    return true;
  }
  return false;
}

double SglangReserve::Fraction(int64_t gpu_mem_mib, std::string* rule) const {
  const double g = static_cast<double>(gpu_mem_mib);
  const double mfs = PyRound((g - total_) / g, 3);
  if (!explain_) return mfs;
  std::string sum;
  for (const std::string& t : terms_) sum += (sum.empty() ? "" : " + ") + t;
  *rule = fmt::format("reserved = {} = {:g} MiB; round(({} - {:g}) / {}, 3) = {:.3f}", sum, total_,
                      gpu_mem_mib, total_, gpu_mem_mib, mfs);
  return mfs;
}

}  // namespace kvplan
