// SGLang's overrides for DeepSeek DSA/NSA models, one row per change; the rules are in
// python/sglang/srt/server_args.py _handle_model_specific_adjustments (is_deepseek_nsa), run
// after _handle_gpu_memory_settings (so the automatic mem_fraction_static's reserve reads the
// typed DP attention) and before _handle_data_parallelism (so the chunk is divided by the forced
// dp, and dp_size 1 turns DP attention off again).
#include "engines/sglang/dsa_overrides.h"

#include <fmt/core.h>

#include "engines/sglang/era.h"

namespace kvplan {

const std::vector<SglangDsaRow>& SglangDsaRows() {
  static const std::vector<SglangDsaRow> rows = {
      // server_args.py @v0.5.3: dp_attention on, dp_size = tp_size, mem_fraction_static = 0.8,
      // kv_cache_dtype fp8_e4m3 on SM100 (typed value or not); the indexer cache not budgeted.
      {SglangVersionKey(0, 5, 3), "0.5.3", SglangDsaDp::kForcedTpSize, 0.8,
       SglangDsaKv::kFp8OnSm100, false, "server_args.py @v0.5.3"},
      // server_args.py @v0.5.3.post1: the 0.8 fraction gone; the indexer's K cache in the cell
      // (model_runner.py, #11309).
      {SglangVersionKey(0, 5, 3, 1), "0.5.3.post1-0.5.4.post1", SglangDsaDp::kForcedTpSize, 0,
       SglangDsaKv::kFp8OnSm100, true, "server_args.py @v0.5.3.post1"},
      // server_args.py @v0.5.4.post2: kv_cache_dtype "auto" only -> fp8_e4m3 if major >= 10
      // else bfloat16 (the same text in the stored server_args.py of the 0.5.5 line).
      {SglangVersionKey(0, 5, 4, 2), "0.5.4.post2-0.5.5", SglangDsaDp::kForcedTpSize, 0,
       SglangDsaKv::kByCapabilityIfAuto, true, "server_args.py @v0.5.4.post2"},
      // server_args.py @v0.5.6: dp attention still forced, dp_size as typed.
      {SglangVersionKey(0, 5, 6), "0.5.6-0.5.7", SglangDsaDp::kForcedAsTyped, 0,
       SglangDsaKv::kByCapabilityIfAuto, true, "server_args.py @v0.5.6"},
      // server_args.py @v0.5.8: DP attention only with NSA context parallel, which kvplan does
      // not model; the KV-dtype rule for "auto" stays.
      {SglangVersionKey(0, 5, 8), "0.5.8 and later", SglangDsaDp::kNone, 0,
       SglangDsaKv::kByCapabilityIfAuto, true, "server_args.py @v0.5.8"},
  };
  return rows;
}

const SglangDsaRow* SglangDsaRowFor(int64_t version_key) {
  const SglangDsaRow* found = nullptr;
  for (const SglangDsaRow& row : SglangDsaRows()) {
    if (version_key >= row.first_key) found = &row;
  }
  return found;
}

std::vector<std::string> SglangDsaWarnings(const SglangDsaApplied& applied,
                                           const std::string& version) {
  std::vector<std::string> out;
  if (applied.row == nullptr) return out;
  const std::string who =
      fmt::format("SGLang {} ({}) for DeepSeek DSA/NSA", version, applied.row->source);
  if (applied.dp_attention_forced || applied.dp_forced) {
    out.push_back(fmt::format(
        "{} forces DP attention{}", who,
        applied.dp_forced ? fmt::format(" with --dp-size = --tp-size (typed {})", applied.typed_dp)
                          : " (--enable-dp-attention)"));
  }
  if (applied.mem_fraction_forced) {
    out.push_back(
        fmt::format("{} forces --mem-fraction-static {}", who, applied.row->mem_fraction_static));
  }
  if (applied.kv_forced) {
    out.push_back(fmt::format("{} forces --kv-cache-dtype fp8_e4m3 on SM100 (typed {})", who,
                              applied.typed_kv));
  }
  return out;
}

}  // namespace kvplan
