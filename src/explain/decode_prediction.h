// kvplan's own decode-throughput prediction for a logged launch, set beside
// what the run measured: the performance model (perf/perf_report.h) on the
// log's model, GPU and parallel layout, with the measured mean accept length
// as the speculative acceptance, so that only time is predicted. Every input
// the log does not give is named in the result, never silently defaulted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "logs/run_record.h"

namespace kvplan {

// The context assumed while decoding when nothing better is known: the decode
// summary keeps no "#token" (tokens in the cache).
inline constexpr int64_t kAssumedDecodeContext = 2048;

struct DecodePredictionRow {
  int64_t running_reqs = 0;
  double predicted_tok_s = 0;  // the whole batch, as the engine's gen throughput counts
  double measured_tok_s = 0;   // the median the run reported at this count
};

struct DecodePrediction {
  // The most common running-request count first, then 1 when it was reported.
  std::vector<DecodePredictionRow> rows;
  std::vector<std::string> inputs;  // where each input came from ("context 2048 assumed", ...)
  std::string why_not;              // non-empty (and rows empty) when kvplan cannot predict
};

// Never throws for a bad or incomplete record: the reason is in why_not.
DecodePrediction PredictDecode(const RunRecord& r);

// The prediction lines of `kvplan explain`'s decode section; nothing when the
// run has no busy decode report.
void AppendDecodePrediction(const RunRecord& r, std::string* out);

}  // namespace kvplan
