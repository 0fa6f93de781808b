// The rules that differ between SGLang releases. Each era is defined in its
// own file (engines/sglang/eras/v0_4_6.cc, engines/sglang/eras/v0_4_7.cc,
// engines/sglang/eras/v0_5_3.cc, engines/sglang/eras/v0_5_7.cc); engines/sglang/planner.cc runs
// the stages common to all of them (engines/sglang/stages.h), which ask the era wherever the
// releases differ.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "engines/sglang/sglang.h"

namespace kvplan {

// What the default rules read: the launch and the GPU capacity.
struct SglangDefaultsInput {
  int64_t version = 0;  // SglangVersionKey of the release
  bool explain = true;  // build the rule texts (a search turns this off)
  const SglangArgs* args = nullptr;
  const ModelSpec* model = nullptr;
  int64_t gpu_mem_mib = 0;  // nvidia-smi capacity (min over GPUs); 0 = unknown
  bool is_mla = false;
  bool speculative = false;  // any algorithm but NGRAM
};

// Values the engine chose, each with the rule that chose it.
struct SglangDefaults {
  double mem_fraction_static = 0;
  std::string mem_fraction_rule;
  int64_t chunked_prefill_size = 0;
  std::string chunked_prefill_rule;
  // The largest captured decode batch; 0 with graphs disabled.
  int64_t cuda_graph_max_bs = 0;
  std::string cuda_graph_rule;
  std::vector<int64_t> capture_bs;  // the decode capture list
  bool piecewise_cuda_graph = false;
  std::string piecewise_rule;
};

struct SglangEra {
  std::string id;        // its first release: "v0.4.6", "v0.4.7.post1", "v0.5.15"
  std::string releases;  // the releases it covers, for people
  std::string source;    // files and commits the rules mirror
  // Resolves mem_fraction_static, chunked_prefill_size, cuda_graph_max_bs and
  // the capture list for values the user left unset.
  SglangDefaults (*defaults)(const SglangDefaultsInput& in) = nullptr;

  // Layer counting: v0.4.6 counts num_hidden_layers even under PP; from
  // v0.4.7 each PP stage counts its own layers.
  bool pp_local_layers = true;
  // v0.4.x-v0.5.6: the target pool grows by the draft's token headroom
  // (removed by #15748, 2025-12-24).
  bool spec_token_headroom = false;
  // 2026-06 (#23862): the draft's KV is budgeted in the target cell size.
  bool draft_kv_in_cell = false;
  // 2026-06 (#28855): draft weights load before profiling (post-load free
  // excludes them) and rest_memory <= 0 raises a ValueError.
  bool draft_weights_before_profile = false;
  bool rest_memory_error = false;
  // v0.5.3 (#11076): "Not enough memory" names the current value.
  bool error_names_mfs = false;
  bool error_names_mfs_server_args = false;  // "self.server_args.mem_fraction_static=" form
  // v0.4.6 allocates req_to_token with max_num_reqs + 1 rows; v0.5.x with
  // max_num_reqs; 2026 with size + 1 padding row.
  int req_to_token_extra_rows = 0;
  // v0.4.6-v0.5.6 max_running_requests = min(tokens // 2 or user, pool size).
  bool scheduler_min_pool = true;
  // Hybrid sliding-window pool: 0 none (all layers full), 1 v0.5.x split of
  // one cell over all layers, 2 the 2026 per-kind cell (#18039).
  int swa_mode = 0;
  // Up to v0.5.2 the capture list is clipped to the request pool size.
  bool capture_clipped_to_pool = false;
  // From v0.5.x the req_to_token pool has num_draft_tokens extra columns.
  bool req_to_token_draft_columns = true;
};

// Sets *rule to the formatted text, only when the plan is explained: the
// texts cost more than the arithmetic they describe.
template <typename... T>
void Rule(const SglangDefaultsInput& in, std::string* rule, fmt::format_string<T...> f,
          T&&... args) {
  if (in.explain) *rule = fmt::format(f, std::forward<T>(args)...);
}

// Era definitions, one per file.
const SglangEra& SglangEraV0_4_6();
const SglangEra& SglangEraV0_4_6Post2();
const SglangEra& SglangEraV0_4_7Post1();
const SglangEra& SglangEraV0_5_3();
const SglangEra& SglangEra2026Early();  // 0.5.7 - 0.5.14
const SglangEra& SglangEra2026Mid();    // 0.5.15 - main

// 0.5.3.post1 -> 0005003001: releases compare as integers.
constexpr int64_t SglangVersionKey(int major, int minor, int patch, int post = 0) {
  return ((int64_t{major} * 1000 + minor) * 1000 + patch) * 1000 + post;
}

// Parses "0.5.3", "v0.5.3.post1", "0.5.15", "main", "latest" ("" = newest)
// and returns its era. Throws InputError for unknown or unmodelled versions.
const SglangEra& SglangEraFor(const std::string& version, std::string* canonical, int64_t* key);

// The capacity buckets of v0.5.3+ (#10975): chunked prefill size and decode
// graph max batch size by nvidia-smi capacity.
struct SglangBucket {
  int64_t chunked_prefill_size;
  int64_t cuda_graph_max_bs;
  std::string label;
};
SglangBucket SglangBucketV053(int64_t gpu_mem_mib, int tp, int64_t version);

// Capture lists shared by several eras.
std::vector<int64_t> SglangCaptureListV05(int64_t max_bs, bool speculative);  // v0.5.3+
std::vector<int64_t> SglangPiecewiseTokens(int64_t max_tokens);               // 2026
// Before v0.5.3: the default list filtered to a user's --cuda-graph-max-bs,
// then (from v0.4.6.post2) padded with range(max(list), max_bs + 1, 16).
std::vector<int64_t> SglangLegacyCaptureList(std::vector<int64_t> base, int64_t user_max_bs,
                                             bool pad);
// Python's round(x, digits): correctly rounded from the exact binary value.
double PyRound(double x, int digits);

}  // namespace kvplan
