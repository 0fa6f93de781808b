// The V1 KV report: start-up check, num_blocks and the lines vLLM prints
// (vllm/v1/core/kv_cache_utils.py), as the format changed across releases.
#include <cmath>

#include <fmt/core.h>
#include <fmt/format.h>

#include "base/text.h"
#include "base/units.h"
#include "engines/vllm/budget.h"

namespace kvplan {
namespace {

constexpr const char* kDocsHint =
    " See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.";

// Release features [inferred from the public logs: 0.8.3 prints no estimate,
// 0.10.1 prints one with .2f, 0.15.2 prints format_gib and the docs link].
bool HasEstimateMsg(const VllmRelease& r) { return r.AtLeast(0, 9, 0); }
bool UsesFormatGib(const VllmRelease& r) { return r.AtLeast(0, 12, 0); }

std::string Gib(const VllmRelease& r, int64_t bytes) {
  return UsesFormatGib(r) ? PyRound2(ToGiB(bytes)) : Gib2(bytes);
}

std::string NotEnoughMessage(const VllmRelease& r, int64_t mml, int64_t needed, int64_t available,
                             int64_t estimated) {
  // kv_cache_utils.py check_enough_kv_cache_memory @bbf906a8 (the typo is vLLM's).
  std::string est;
  if (HasEstimateMsg(r)) {
    est = fmt::format("Based on the available memory, the estimated maximum model length is {}. ",
                      estimated);
  }
  std::string msg = fmt::format(
      "To serve at least one request with the models's max seq len ({}), ({} GiB KV cache is "
      "needed, which is larger than the available KV cache memory ({} GiB). {}Try increasing "
      "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
      mml, Gib(r, needed), Gib(r, available), est);
  if (UsesFormatGib(r)) msg += kDocsHint;
  return msg;
}

}  // namespace

VllmKvReport VllmV1Report(const VllmKvSpec& spec, const VllmKvSpec& check_spec, int64_t available,
                          int64_t mml, int64_t mnbt, const VllmRelease& r) {
  VllmKvReport rep;
  rep.needed = VllmNeededMemory(check_spec, mml, mnbt);
  if (available <= 0) {
    rep.error =
        "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
        "initializing the engine.";
    if (UsesFormatGib(r)) rep.error += kDocsHint;
    return rep;
  }
  if (rep.needed > available) {
    rep.estimated_max_len = VllmEstimateMaxModelLen(check_spec, available, mml, mnbt);
    rep.error = NotEnoughMessage(r, mml, rep.needed, available, rep.estimated_max_len);
    return rep;
  }
  rep.ok = true;
  rep.num_blocks = VllmNumBlocks(spec, available);
  if (!r.AtLeast(0, 9, 2)) {
    // kv_cache_utils.py @v0.8 (PR #13596): tokens = blocks * block_size, concurrency = tokens /
    // len.
    rep.tokens = rep.num_blocks * spec.block_size;
    rep.token_rule = VllmKvReport::TokenRule::kBlocksTimesBlockSize;
    rep.concurrency = static_cast<double>(rep.tokens) / static_cast<double>(mml);
  } else {
    rep.concurrency = VllmGroupConcurrency(spec, rep.num_blocks, mml, mnbt);
    if (!r.AtLeast(0, 26, 0)) {
      // kv_cache_utils.py _report_kv_cache_config @v0.10: blocks // groups * block_size.
      rep.tokens = rep.num_blocks / spec.num_groups * spec.block_size;
      rep.token_rule = VllmKvReport::TokenRule::kBlocksPerGroup;
    } else {
      // kv_cache_utils.py update_kv_cache_capacity (autumn 2026, issue #54662): derived.
      rep.tokens = static_cast<int64_t>(rep.concurrency * static_cast<double>(mml));
      rep.token_rule = VllmKvReport::TokenRule::kFromConcurrency;
    }
  }
  return rep;
}

std::string DescribeVllmTokenRule(const VllmKvReport& rep, const VllmKvSpec& spec, int64_t mml) {
  switch (rep.token_rule) {
    case VllmKvReport::TokenRule::kBlocksTimesBlockSize:
      return fmt::format("num_gpu_blocks x block_size = {} x {}", rep.num_blocks, spec.block_size);
    case VllmKvReport::TokenRule::kBlocksPerGroup:
      return fmt::format("num_gpu_blocks // groups x block_size = {} // {} x {}", rep.num_blocks,
                         spec.num_groups, spec.block_size);
    case VllmKvReport::TokenRule::kFromConcurrency:
      return fmt::format("int(max_concurrency x max_model_len) = int({:.4f} x {})", rep.concurrency,
                         mml);
  }
  return "";
}

std::vector<std::string> DescribeVllmV1ReportLines(const VllmKvReport& rep, int64_t mml,
                                                   const VllmRelease& r) {
  if (!rep.ok) return {};
  if (!r.AtLeast(0, 7, 3)) {
    // kv_cache_utils.py @v0.7.0 (PR #12569): plain block count, unseparated length.
    return {fmt::format("# GPU blocks: {}", rep.num_blocks),
            fmt::format("Maximum concurrency for {} tokens per request: {:.2f}x", mml,
                        rep.concurrency)};
  }
  if (!r.AtLeast(0, 26, 0)) {
    return {fmt::format("GPU KV cache size: {} tokens", WithThousands(rep.tokens)),
            fmt::format("Maximum concurrency for {} tokens per request: {:.2f}x",
                        WithThousands(mml), rep.concurrency)};
  }
  return {
      fmt::format("GPU KV cache size: {} tokens, Maximum concurrency for {} tokens per request: "
                  "{:.2f}x",
                  WithThousands(rep.tokens), WithThousands(mml), rep.concurrency)};
}

}  // namespace kvplan
