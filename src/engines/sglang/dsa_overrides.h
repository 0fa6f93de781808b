// What SGLang forces for a DeepSeek sparse-attention (DSA/NSA) model, DeepSeek-V3.2's
// DeepseekV32ForCausalLM (configs/model_config.py is_deepseek_nsa: an index_topk), release by
// release: one table (dsa_overrides.cc), each row citing server_args.py at its tag. The launch
// stage applies the row (launch.cc), the cell reads its indexer term (cell.cc), and the plan says
// which override was applied and why (describe_settings.cc).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kvplan {

// DP attention under the row.
enum class SglangDsaDp {
  kNone,          // left as typed
  kForcedTpSize,  // enable_dp_attention = True, dp_size = tp_size
  kForcedAsTyped  // enable_dp_attention = True, dp_size as typed
};

// The KV cache dtype under the row.
enum class SglangDsaKv {
  kFp8OnSm100,         // fp8_e4m3 on SM >= 100 whatever was typed; else as typed
  kByCapabilityIfAuto  // "auto": fp8_e4m3 on SM >= 100, bfloat16 below; else as typed
};

struct SglangDsaRow {
  int64_t first_key = 0;      // SglangVersionKey of the first release of the row
  const char* releases = "";  // for people: "0.5.3", "0.5.6-0.5.7", ...
  SglangDsaDp dp = SglangDsaDp::kNone;
  double mem_fraction_static = 0;  // forced value; 0 leaves the fraction alone
  SglangDsaKv kv = SglangDsaKv::kByCapabilityIfAuto;
  bool indexer_in_cell = false;  // the indexer's K cache counted in the cell size
  const char* source = "";       // the engine file and tag the row mirrors
};

// The rows, oldest first; each holds until the next one's first release.
const std::vector<SglangDsaRow>& SglangDsaRows();

// The row for the release (version key), or nullptr before the first one (0.5.3, the first
// release that serves the model: catalog/engine_support.cc).
const SglangDsaRow* SglangDsaRowFor(int64_t version_key);

// What the row changed on one launch, for the plan's texts.
struct SglangDsaApplied {
  const SglangDsaRow* row = nullptr;  // nullptr: not a DSA model
  bool dp_attention_forced = false;   // --enable-dp-attention was off and SGLang turned it on
  int typed_dp = 1;                   // --dp-size as typed
  bool typed_dp_attention = false;    // --enable-dp-attention as typed
  bool dp_forced = false;             // dp_size changed to tp_size
  bool mem_fraction_forced = false;
  std::string typed_kv;  // --kv-cache-dtype as typed
  bool kv_forced = false;
};

// The plan's warnings for what was applied (empty when nothing changed).
std::vector<std::string> SglangDsaWarnings(const SglangDsaApplied& applied,
                                           const std::string& version);

}  // namespace kvplan
