// The reserved-memory sum behind SGLang's automatic mem_fraction_static
// (v0.5.3 and later), term by term so the report can show each one.
#pragma once

#include <string>

#include <fmt/core.h>
#include <vector>

#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"

namespace kvplan {

class SglangReserve {
 public:
  explicit SglangReserve(bool explain) : explain_(explain) {}
  // Adds `mib`, described by a format string that is only formatted when the
  // plan is explained.
  template <typename... T>
  void Add(double mib, fmt::format_string<T...> what, T&&... args) {
    total_ += mib;
    if (explain_)
      terms_.push_back(fmt::format("{:g} ({})", mib, fmt::format(what, std::forward<T>(args)...)));
  }
  // The constant 512 MiB of metadata.
  void AddMetadata();
  // max(chunked_prefill_size, 2048) * 1.5 (max_prefill_tokens when chunking is off)
  void AddActivation(const SglangDefaults& d, const SglangArgs& a);
  // tp * pp / 8 GiB.
  void AddParallelism(const SglangArgs& a);
  // DP attention: cuda_graph_max_bs * dp * 3, and * 1.5 more above bs 300.
  void AddDpAttention(const SglangArgs& a, int64_t cuda_graph_max_bs);
  // Cards above 60 GiB reserve at least 10 GiB.
  void FloorLargeCard(int64_t gpu_mem_mib);
  double total() const { return total_; }
  // round((gpu_mem - reserved) / gpu_mem, 3), with the rule text.
  double Fraction(int64_t gpu_mem_mib, std::string* rule) const;

 private:
  bool explain_;
  double total_ = 0;
  std::vector<std::string> terms_;
};

// Sets d->mem_fraction_static when no reserve rule applies: the user gave
// the fraction, or the GPU capacity is unknown (server_args.py @v0.5.3: 0.88).
// Returns true in those cases.
bool SglangFractionNeedsNoRule(const SglangDefaultsInput& in, SglangDefaults* d);

// v0.5.3+ chunked prefill, decode graph size and capture list for unset
// flags (shared by the v0.5.3 and 2026 eras).
SglangDefaults SglangResolveBucketsAndGraphs(const SglangDefaultsInput& in);

}  // namespace kvplan
