// kvplan's own decode-throughput prediction for a logged launch, set beside
// what the run measured: the performance model (perf/perf_report.h) on the
// log's model, GPU and parallel layout, with the measured mean accept length
// as the speculative acceptance, so that only time is predicted. Every input
// the log does not give is named in the result, never silently defaulted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "explain/decode_report.h"
#include "explain/explain_types.h"
#include "logs/run_record.h"

namespace kvplan {

// The context assumed while decoding when nothing better is known: the decode
// summary keeps no "#token" (tokens in the cache).
inline constexpr int64_t kAssumedDecodeContext = 2048;

// Never throws for a bad or incomplete record: the reason is in why_not.
// `draft`: the run's draft model, loaded once (LoadDraftOf).
DecodePrediction PredictDecode(const RunRecord& r, const LoggedDraft& draft);
DecodePrediction PredictDecode(const RunRecord& r);

}  // namespace kvplan
