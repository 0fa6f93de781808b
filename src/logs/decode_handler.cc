#include "logs/decode_handler.h"

#include <fmt/core.h>

#include "logs/decode_lines.h"
#include "logs/text_scan.h"

namespace kvplan {
namespace {

void Sglang(std::string_view msg, RunBuilder& b) {
  std::optional<DecodeSample> s = ParseSglangDecodeLine(msg);
  if (!s) {
    b.Note("skipped a cut or garbled SGLang Decode batch line");
    return;
  }
  b.SetEngine("sglang");
  b.AddDecodeSample(*s, b.line().rank);
}

void VllmThroughput(std::string_view msg, RunBuilder& b) {
  std::optional<DecodeSample> s = ParseVllmThroughputLine(msg);
  if (!s) {
    b.Note("skipped a cut or garbled vLLM throughput line");
    return;
  }
  b.SetEngine("vllm");
  // V1 engines of a data-parallel deployment each report their own batches.
  std::string rank =
      s->engine >= 0 ? fmt::format("Engine {:03d}", s->engine) : std::string(b.line().rank);
  b.AddDecodeSample(*s, rank);
}

}  // namespace

bool HandleDecodeLine(std::string_view msg, RunBuilder& b) {
  if (msg.empty()) return false;
  switch (msg[0]) {
    case 'D':
      if (!StartsWith(msg, "Decode batch")) return false;
      Sglang(msg, b);
      return true;
    case 'E':
      if (!StartsWith(msg, "Engine ") || !Contains(msg, "throughput: ")) return false;
      VllmThroughput(msg, b);
      return true;
    case 'A':
      if (!StartsWith(msg, "Avg prompt throughput: ") &&
          !StartsWith(msg, "Avg generation throughput: "))
        return false;
      VllmThroughput(msg, b);
      return true;
    case 'S':
      if (!StartsWith(msg, "SpecDecoding metrics: ") && !StartsWith(msg, "Speculative metrics: "))
        return false;
      if (std::optional<SpecMetrics> m = ParseVllmSpecLine(msg)) b.AddSpecMetrics(*m);
      return true;
    default:
      return false;
  }
}

}  // namespace kvplan
