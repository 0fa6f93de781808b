// The decode figures a run measured, as `kvplan explain` and `kvplan diff`
// show them, and the speculative-decoding facts they are read against.
#pragma once

#include <optional>
#include <string>

#include "catalog/model.h"
#include "logs/run_record.h"

namespace kvplan {

// A mean accept length at or below this means no draft token is accepted:
// 1.00 is the target's own token alone (SGLang counts it; vLLM adds it as the bonus token).
inline constexpr double kNothingAccepted = 1.05;

// The run's speculative decoding as its args say: SGLang's algorithm ("EAGLE3"),
// vLLM's speculative_config method ("eagle3", or "on" when unnamed); "" when off.
std::string SpeculationOf(const RunRecord& r);
// The draft model the args name; "" when none.
std::string DraftOf(const RunRecord& r);

// The draft model the args name, read once for every check that needs it.
struct LoggedDraft {
  std::string path;               // DraftOf(run); "" when none
  std::optional<ModelSpec> spec;  // from kvplan's catalog or a local config; nullopt: unknown
};
LoggedDraft LoadDraftOf(const RunRecord& r);

// When speculation is on and accepts nothing: what to check, in one line,
// naming the known cause (an EAGLE-3 draft run as EAGLE, sglang PR #21272) when
// the args show it. nullopt otherwise.
std::optional<std::string> NothingAcceptedCause(const RunRecord& r, const LoggedDraft& draft);
std::optional<std::string> NothingAcceptedCause(const RunRecord& r);

}  // namespace kvplan
