#include "logs/decode_lines.h"

#include <charconv>
#include <cmath>

#include "logs/text_scan.h"

namespace kvplan {
namespace {

// The largest figure any of these lines can honestly hold (tokens/s, requests):
// beyond it the line is garbled.
constexpr double kMaxFigure = 1e9;

bool Sane(double v) { return std::isfinite(v) && v >= 0 && v <= kMaxFigure; }

// The number right after `key`, counted only when `end` follows it: every
// figure these lines print is followed by a separator or a unit, so a number
// at the very end of a cut line ("gen throughput (token/s): 65") is not read.
std::optional<double> Field(std::string_view msg, std::string_view key, std::string_view end) {
  size_t at = msg.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = msg.substr(at + key.size());
  std::optional<double> v = TakeNumber(&rest);
  if (!v || !Sane(*v) || !StartsWith(rest, end)) return std::nullopt;
  return v;
}

std::optional<int64_t> CountField(std::string_view msg, std::string_view key,
                                  std::string_view end) {
  std::optional<double> v = Field(msg, key, end);
  if (!v || *v != std::floor(*v)) return std::nullopt;
  return static_cast<int64_t>(*v);
}

// "cuda graph: True," -> true. SGLang prints "cpu graph" on CPU devices.
std::optional<bool> GraphFlag(std::string_view msg) {
  for (std::string_view key : {"cuda graph: ", "cpu graph: "}) {
    size_t at = msg.find(key);
    if (at == std::string_view::npos) continue;
    std::string_view rest = msg.substr(at + key.size());
    if (StartsWith(rest, "True,")) return true;
    if (StartsWith(rest, "False,")) return false;
  }
  return std::nullopt;
}

// "0.645, 0.393, 0.240, Avg ..." -> {0.645, 0.393, 0.240}. vLLM prints each
// with "%.3f": a last entry at the end of the line counts only with all three
// decimals (fewer means the line was cut inside it).
std::vector<double> RateList(std::string_view msg, std::string_view key) {
  std::vector<double> out;
  size_t at = msg.find(key);
  if (at == std::string_view::npos) return out;
  std::string_view rest = msg.substr(at + key.size());
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    double v = 0;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec != std::errc() || p != item.data() + item.size() || !(v >= 0 && v <= 1)) break;
    size_t dot = item.find('.');
    if (comma == std::string_view::npos &&
        (dot == std::string_view::npos || item.size() - dot != 4))
      break;
    out.push_back(v);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
    while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  }
  return out;
}

// "Engine 003: Avg ..." -> 3 and the text after the tag; -1 when there is none.
int TakeEngineIndex(std::string_view* msg) {
  if (!StartsWith(*msg, "Engine ")) return -1;
  std::string_view rest = msg->substr(7);
  int v = -1;
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
  if (ec != std::errc() || v < 0 || p == rest.data() + rest.size() || *p != ':') return -2;
  rest.remove_prefix(static_cast<size_t>(p - rest.data()) + 1);
  while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  *msg = rest;
  return v;
}

}  // namespace

// python/sglang/srt/managers/scheduler_metrics_mixin.py log_decode_stats (2025-11 main):
// "Decode batch[ [iter]], #running-req: N, <token usage fields>[accept len: L, accept rate: R, ]
// [pre-allocated ...]cuda graph: B, gen throughput (token/s): T, #queue-req: Q, "; older
// releases wrote "Decode batch. " and had no accept rate or no cuda graph field.
std::optional<DecodeSample> ParseSglangDecodeLine(std::string_view msg) {
  if (!StartsWith(msg, "Decode batch")) return std::nullopt;
  std::optional<int64_t> running = CountField(msg, "#running-req: ", ",");
  std::optional<double> tok_s = Field(msg, "gen throughput (token/s): ", ",");
  if (!running || !tok_s) return std::nullopt;
  DecodeSample s;
  s.running_reqs = *running;
  s.gen_tok_s = *tok_s;
  s.accept_len = Field(msg, "accept len: ", ",");
  s.accept_rate = Field(msg, "accept rate: ", ",");
  s.cuda_graph = GraphFlag(msg);
  return s;
}

// vllm/v1/metrics/loggers.py LoggingStatLogger.log (v0.10): "Engine %03d: Avg prompt
// throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs,
// Waiting: %d reqs, ..."; V0 vllm/engine/metrics.py: the same figures without the engine
// tag, then "Swapped: %d reqs, Pending: %d reqs, ...".
std::optional<DecodeSample> ParseVllmThroughputLine(std::string_view msg) {
  int engine = TakeEngineIndex(&msg);
  if (engine == -2) return std::nullopt;
  if (!StartsWith(msg, "Avg prompt throughput: ") &&
      !StartsWith(msg, "Avg generation throughput: "))
    return std::nullopt;
  std::optional<double> tok_s = Field(msg, "Avg generation throughput: ", " tokens/s");
  std::optional<int64_t> running = CountField(msg, "Running: ", " reqs");
  if (!tok_s || !running) return std::nullopt;
  DecodeSample s;
  s.running_reqs = *running;
  s.gen_tok_s = *tok_s;
  s.engine = engine;
  return s;
}

std::optional<SpecMetrics> ParseVllmSpecLine(std::string_view msg) {
  SpecMetrics m;
  if (StartsWith(msg, "SpecDecoding metrics: ")) {
    // vllm/v1/spec_decode/metrics.py SpecDecodingLogging.log (v0.10): "Mean acceptance
    // length: %.2f, ..., Per-position acceptance rate: %s, Avg Draft acceptance rate: %.1f%%";
    // v0.8-v0.9 began "Draft acceptance rate: %.1f%%, Mean acceptance length: %.2f, ...".
    m.accept_len = Field(msg, "Mean acceptance length: ", ",");
    if (std::optional<double> pct = Field(msg, "Draft acceptance rate: ", "%")) {
      m.accept_rate = *pct / 100;
    }
    m.per_position = RateList(msg, "Per-position acceptance rate: ");
  } else if (StartsWith(msg, "Speculative metrics: ")) {
    // V0 vllm/spec_decode/metrics.py: accepted / draft tokens as "Draft acceptance rate: %.3f";
    // tokens per verify step = emitted / (draft_tokens / k), the sequences speculated on.
    m.accept_rate = Field(msg, "Draft acceptance rate: ", ",");
    std::optional<int64_t> k = CountField(msg, "Number of speculative tokens: ", ",");
    std::optional<int64_t> drafted = CountField(msg, "Number of draft tokens: ", ",");
    // The line ends "Number of emitted tokens: %d.": a cut line lacks the final period.
    std::optional<int64_t> emitted =
        msg.ends_with('.') ? CountField(msg, "Number of emitted tokens: ", "") : std::nullopt;
    if (k && drafted && emitted && *k > 0 && *drafted > 0) {
      m.accept_len =
          static_cast<double>(*emitted) * static_cast<double>(*k) / static_cast<double>(*drafted);
    }
  } else {
    return std::nullopt;
  }
  if (m.accept_rate && *m.accept_rate > 1) m.accept_rate.reset();
  if (!m.accept_len && !m.accept_rate && m.per_position.empty()) return std::nullopt;
  return m;
}

}  // namespace kvplan
