// The lines engines print while decoding: what a run measured once it served
// requests. Each parser reads one log message (the prefix already split off)
// and returns nothing unless the line is one it knows and its required figures
// read cleanly: a cut or garbled line is skipped, never guessed at.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kvplan {

// One periodic decode report.
struct DecodeSample {
  int64_t running_reqs = 0;
  double gen_tok_s = 0;               // the engine's generation throughput over its interval
  std::optional<double> accept_len;   // speculative decoding: tokens per verify step
  std::optional<double> accept_rate;  // as a fraction of 1
  std::optional<bool> cuda_graph;     // SGLang: whether the batch ran in a CUDA graph
  int64_t line = 0;
  int engine = -1;  // vLLM V1 "Engine 003:" -> 3; -1 when the line has no engine index
};

// vLLM's separate speculative-decoding report, printed right after its
// throughput line.
struct SpecMetrics {
  std::optional<double> accept_len;
  std::optional<double> accept_rate;  // fraction of drafted tokens accepted
  std::vector<double> per_position;   // acceptance rate of draft position 1, 2, ...
};

// SGLang "Decode batch. #running-req: 1, #token: 206, ..., cuda graph: True,
// gen throughput (token/s): 656.23, #queue-req: 0".
std::optional<DecodeSample> ParseSglangDecodeLine(std::string_view message);

// vLLM "Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation
// throughput: 82.1 tokens/s, Running: 1 reqs, ..." (V1) or the same without
// "Engine NNN: " and with "Swapped:" (V0).
std::optional<DecodeSample> ParseVllmThroughputLine(std::string_view message);

// vLLM "SpecDecoding metrics: Mean acceptance length: 2.31, ..." (V1) or
// "Speculative metrics: Draft acceptance rate: 0.642, System efficiency: ..." (V0).
std::optional<SpecMetrics> ParseVllmSpecLine(std::string_view message);

}  // namespace kvplan
