// `kvplan diff`'s decode part: what the two runs measured while decoding, side
// by side at a running-request count both reported, and — when B decodes
// slower or accepts fewer draft tokens — the difference that explains it.
#include <vector>

#include <fmt/core.h>

#include "base/format.h"
#include "explain/decode_diff.h"
#include "explain/decode_report.h"
#include "report/diff_render.h"
#include "report/explain_render.h"

namespace kvplan {
namespace {

constexpr double kSlower = 0.95;      // B below 95 % of A's tok/s
constexpr double kAcceptDrop = 0.10;  // tokens per verify step

std::optional<double> TokS(const RunRecord& r, int64_t batch) {
  const DecodeBatchFigures* b = r.decode.Batch(batch);
  return b ? std::optional<double>(b->median_tok_s) : std::nullopt;
}

std::string SpecLabel(const RunRecord& r) {
  std::string spec = SpeculationOf(r);
  if (spec.empty()) return "no speculation";
  if (r.decode.mean_accept_len) {
    return fmt::format("{} with accept length {:.2f}", spec, *r.decode.mean_accept_len);
  }
  return spec;
}

// The speculative settings that differ, "a -> b" each; "" when none.
std::string SpecChanges(const RunRecord& a, const RunRecord& b) {
  std::string out;
  for (const char* key :
       {"speculative_algorithm", "speculative_draft_model_path", "speculative_num_steps",
        "speculative_eagle_topk", "speculative_num_draft_tokens", "speculative_config"}) {
    const LoggedSetting* x = a.FindSetting(key);
    const LoggedSetting* y = b.FindSetting(key);
    std::string vx = x ? x->value : "-", vy = y ? y->value : "-";
    if (vx != vy) out += fmt::format("{}{} {} -> {}", out.empty() ? "" : ", ", key, vx, vy);
  }
  return out;
}

// Why B is slower, most telling first.
std::string SlowerBecause(const DiffResult& d) {
  const RunRecord& a = d.a;
  const RunRecord& b = d.b;
  const std::optional<std::string>& cause = d.b_nothing_accepted_cause;
  bool spec_a = !SpeculationOf(a).empty(), spec_b = !SpeculationOf(b).empty();
  const std::optional<double>& acc_a = a.decode.mean_accept_len;
  const std::optional<double>& acc_b = b.decode.mean_accept_len;
  if (spec_b && !spec_a) {
    std::string why = fmt::format("B runs {} and A {}", SpecLabel(b), SpecLabel(a));
    if (cause) {
      return why + ": B's drafts are never accepted, so every step pays for them. " + *cause;
    }
    return why + ": the draft and verify passes cost more than the accepted tokens save here";
  }
  if (spec_a && spec_b && acc_a && acc_b && *acc_b < *acc_a - kAcceptDrop) {
    std::string changes = SpecChanges(a, b);
    std::string why = fmt::format("B's accept length fell from {:.2f} to {:.2f}{}", *acc_a, *acc_b,
                                  changes.empty() ? "" : " (" + changes + ")");
    if (cause) why += ". " + *cause;
    return why;
  }
  if (spec_a && !spec_b) {
    return fmt::format("A runs {} and B none", SpecLabel(a));
  }
  std::optional<double> off_a = a.decode.GraphOffShare(), off_b = b.decode.GraphOffShare();
  if (off_b && *off_b > off_a.value_or(0) + 0.1) {
    return fmt::format("B ran {:.0f}% of its busy decode reports without a CUDA graph (A {:.0f}%)",
                       *off_b * 100, off_a.value_or(0) * 100);
  }
  return "no speculative or CUDA-graph difference explains it; see the settings that differ";
}

std::string Cell(std::optional<double> v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : "-";
}

}  // namespace

std::string DecodeVerdict(const DiffResult& d) {
  const RunRecord& a = d.a;
  const RunRecord& b = d.b;
  std::optional<int64_t> batch = CommonBatch(a, b);
  if (batch) {
    double ta = *TokS(a, *batch), tb = *TokS(b, *batch);
    if (tb < ta * kSlower) {
      return fmt::format("B decodes {:.1f} tok/s against A's {:.1f} at {}: {}", tb, ta,
                         RunningRequests(*batch), SlowerBecause(d));
    }
  }
  const std::optional<double>& acc_a = a.decode.mean_accept_len;
  const std::optional<double>& acc_b = b.decode.mean_accept_len;
  if (acc_a && acc_b && *acc_b < *acc_a - kAcceptDrop) {
    std::string changes = SpecChanges(a, b);
    std::string line =
        fmt::format("B accepts fewer draft tokens: accept length {:.2f} -> {:.2f}", *acc_a, *acc_b);
    if (!changes.empty()) line += " (" + changes + ")";
    if (d.b_nothing_accepted_cause) line += ". " + *d.b_nothing_accepted_cause;
    return line;
  }
  return "";
}

std::string DecodeDiffText(const DiffResult& d) {
  const RunRecord& a = d.a;
  const RunRecord& b = d.b;
  if (a.decode.empty() && b.decode.empty()) return "";
  std::string out =
      fmt::format("\nDecode, measured side by side\n  {:<36} {:>9} {:>9}\n", "", "A", "B");
  auto row = [&out](const std::string& label, const std::string& x, const std::string& y) {
    out += fmt::format("  {:<36} {:>9} {:>9}\n", label, x, y);
  };
  row("decode reports counted", fmt::format("{}", a.decode.samples),
      fmt::format("{}", b.decode.samples));
  std::optional<int64_t> batch = CommonBatch(a, b);
  std::vector<int64_t> shown;
  if (batch) shown.push_back(*batch);
  if (batch != int64_t{1} && (a.decode.Batch(1) || b.decode.Batch(1))) shown.push_back(1);
  for (int64_t n : shown) {
    row(fmt::format("median tok/s at {}", RunningRequests(n)), Cell(TokS(a, n), "{:.1f}"),
        Cell(TokS(b, n), "{:.1f}"));
  }
  if (!batch) {
    auto most = [](const RunRecord& r) {
      const DecodeBatchFigures* c = r.decode.MostCommon();
      return c ? fmt::format("{:.1f} @{}", c->median_tok_s, c->running_reqs) : "-";
    };
    row("median tok/s @ most common batch", most(a), most(b));
  }
  row("speculation", SpeculationOf(a).empty() ? "off" : SpeculationOf(a),
      SpeculationOf(b).empty() ? "off" : SpeculationOf(b));
  row("mean accept length", Cell(a.decode.mean_accept_len, "{:.2f}"),
      Cell(b.decode.mean_accept_len, "{:.2f}"));
  auto off = [](const RunRecord& r) {
    std::optional<double> s = r.decode.GraphOffShare();
    return s ? fmt::format("{:.0f}%", *s * 100) : std::string("-");
  };
  row("CUDA graph off (busy reports)", off(a), off(b));
  if (std::string verdict = DecodeVerdict(d); !verdict.empty())
    out += WrapText("  => " + verdict, 5);
  return out;
}

}  // namespace kvplan
