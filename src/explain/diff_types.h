// What `kvplan diff` finds between two launches, as plain values for report/
// to render: each changed setting with its re-planned effect on A's measured
// memory, all re-plannable changes together, and B's decode finding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "logs/run_record.h"

namespace kvplan {

// One re-plan's figures before and after the change, engine-neutral.
struct BeforeAfter {
  bool vllm = false;            // the figures are vLLM's KV budget, else SGLang's rest_memory
  double gib_a = 0, gib_b = 0;  // rest_memory (SGLang) or the KV budget (vLLM)
  std::optional<int64_t> tokens_a, tokens_b;
  bool ok_after = false;
  std::string error_after;
};

// Why a change that shapes memory was not re-planned.
enum class NotReplanned {
  kNo,               // it was re-planned, or it does not shape memory
  kNoBudget,         // A has no budget to re-plan on (`why` says what is missing)
  kGraphsAfterKv,    // CUDA graphs are captured after the KV pool is sized
  kChangesMeasured,  // it changes what the log measured, not the KV formula
  kRefused,          // the re-plan refused the value (`why` is its message)
};

struct SettingChange {
  std::string key;
  std::string a, b;            // "" when the run does not print it
  std::string a_prov, b_prov;  // "user", "auto", "unknown"
  bool memory = false;         // shapes memory
  bool replanned = false;      // kvplan applied it to A's measured figures
  double rest_a_gib = 0, rest_b_gib = 0;
  std::optional<int64_t> tokens_a, tokens_b;
  bool ok_after = true;
  std::string error_after;
  bool vllm = false;              // re-planned with the vLLM model
  bool explains_failure = false;  // alone, it turns A's success into B's failure
  NotReplanned not_replanned = NotReplanned::kNo;
  std::string why;  // for kNoBudget and kRefused
};

struct DiffResult {
  RunRecord a, b;
  std::string a_name, b_name;
  std::vector<SettingChange> changes;   // memory changes by effect first, then the rest
  std::optional<BeforeAfter> together;  // all re-plannable changes together
  // NothingAcceptedCause(b), read once (it may load B's draft model).
  std::optional<std::string> b_nothing_accepted_cause;
};

}  // namespace kvplan
