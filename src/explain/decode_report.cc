#include "explain/decode_report.h"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

#include "catalog/model.h"
#include "engines/sglang/speculative.h"

namespace kvplan {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool Unset(const std::string& v) { return v.empty() || v == "None" || v == "null"; }

std::string SettingValue(const RunRecord& r, const char* key) {
  const LoggedSetting* s = r.FindSetting(key);
  return s == nullptr || Unset(s->value) ? "" : s->value;
}

// The quoted value after `key` in a dict as printed ("'method': 'eagle3'").
std::string QuotedAfter(const std::string& text, const std::string& key) {
  size_t at = text.find(key);
  if (at == std::string::npos) return "";
  size_t open = text.find_first_of("'\"", at + key.size() + 1);
  if (open == std::string::npos || open > at + key.size() + 4) return "";
  size_t close = text.find(text[open], open + 1);
  return close == std::string::npos ? "" : text.substr(open + 1, close - open - 1);
}

std::string Requests(int64_t n) {
  return fmt::format("{} running request{}", n, n == 1 ? "" : "s");
}

// The draft's architecture says EAGLE-3 (kvplan's catalog or a local config),
// or failing that its name does.
bool DraftIsEagle3(const std::string& algorithm, const std::string& draft, bool* by_name) {
  *by_name = false;
  try {
    ModelSpec spec = LoadModel(draft);
    return SglangEagleWithEagle3Draft(algorithm, &spec);
  } catch (const std::exception&) {
  }
  std::string name = Lower(draft);
  *by_name = name.find("eagle3") != std::string::npos || name.find("eagle-3") != std::string::npos;
  return *by_name && Lower(algorithm) == "eagle";
}

void AppendBatches(const DecodeSummary& d, std::string* out) {
  const DecodeBatchFigures* common = d.MostCommon();
  if (common == nullptr) {
    *out += "  no busy report (every one says 0 tok/s or 0 running requests)\n";
    return;
  }
  std::vector<const DecodeBatchFigures*> rows = {common};
  if (const DecodeBatchFigures* one = d.Batch(1); one != nullptr && one != common) {
    rows.push_back(one);
  }
  for (const DecodeBatchFigures& b : d.batches) {
    if (rows.size() >= 4) break;
    if (std::find(rows.begin(), rows.end(), &b) == rows.end()) rows.push_back(&b);
  }
  for (const DecodeBatchFigures* b : rows) {
    std::string accept =
        b->mean_accept_len ? fmt::format(", accept length {:.2f}", *b->mean_accept_len) : "";
    *out += fmt::format("  at {:<22} median {:>8.1f} tok/s over {} report{}{}{}\n",
                        Requests(b->running_reqs), b->median_tok_s, b->samples,
                        b->samples == 1 ? "" : "s", b == common ? " (most common)" : "", accept);
  }
}

void AppendSpeculation(const RunRecord& r, const DecodeSummary& d, std::string* out) {
  std::string spec = SpeculationOf(r);
  if (!d.mean_accept_len && spec.empty()) return;
  std::string line = "  speculation  " + (spec.empty() ? "(not in the args)" : spec);
  if (d.mean_accept_len) line += fmt::format(", mean accept length {:.2f}", *d.mean_accept_len);
  if (d.mean_accept_rate) line += fmt::format(" (accept rate {:.2f})", *d.mean_accept_rate);
  if (!d.mean_accept_len) line += ", no accept length in the reports";
  *out += line + "\n";
  if (!d.per_position_acceptance.empty()) {
    std::string rates;
    for (double p : d.per_position_acceptance)
      rates += fmt::format("{}{:.3f}", rates.empty() ? "" : ", ", p);
    *out += "  per-position acceptance  " + rates + "\n";
  }
  if (std::optional<std::string> cause = NothingAcceptedCause(r)) {
    *out += fmt::format(
        "  WARNING: no draft token is accepted (mean accept length {:.2f}; 1.00 is the target's "
        "own token alone): every draft step is wasted work.\n           {}\n",
        *d.mean_accept_len, *cause);
  }
}

}  // namespace

std::string SpeculationOf(const RunRecord& r) {
  if (std::string alg = SettingValue(r, "speculative_algorithm"); !alg.empty()) return alg;
  std::string config = SettingValue(r, "speculative_config");
  if (config.empty()) return "";
  std::string method = QuotedAfter(config, "method");
  return method.empty() ? "on" : method;
}

std::string DraftOf(const RunRecord& r) {
  if (std::string d = SettingValue(r, "speculative_draft_model_path"); !d.empty()) return d;
  return QuotedAfter(SettingValue(r, "speculative_config"), "model");
}

std::optional<std::string> NothingAcceptedCause(const RunRecord& r) {
  std::string spec = SpeculationOf(r);
  const std::optional<double>& accept = r.decode.mean_accept_len;
  if (spec.empty() || !accept || *accept > kNothingAccepted) return std::nullopt;
  std::string draft = DraftOf(r);
  if (r.engine == "sglang" && Lower(spec) == "eagle") {
    bool by_name = false;
    if (!draft.empty() && DraftIsEagle3(spec, draft, &by_name)) {
      return fmt::format(
          "Known cause: the draft {} is an EAGLE-3 head ({}) run with --speculative-algorithm "
          "EAGLE: SGLang feeds it one hidden layer instead of three (sglang PR #21272); relaunch "
          "with --speculative-algorithm EAGLE3.",
          draft, by_name ? "by its name" : "by its architecture");
    }
    return fmt::format(
        "Check that the draft{} is not an EAGLE-3 head run as EAGLE (sglang PR #21272): if it "
        "is, relaunch with --speculative-algorithm EAGLE3.",
        draft.empty() ? "" : " " + draft);
  }
  return fmt::format("Check that the draft{} was trained for this target model and this {}.",
                     draft.empty() ? "" : " " + draft, spec);
}

void AppendDecodeSection(const RunRecord& r, std::string* out) {
  const DecodeSummary& d = r.decode;
  if (d.empty()) return;
  std::string whose = d.rank.empty() ? "" : " of " + d.rank;
  std::string idle = d.idle > 0 ? fmt::format("; {} idle left out", d.idle) : "";
  *out += fmt::format("\nDecode, measured ({} report{}{}, lines {}-{}{})\n", d.samples,
                      d.samples == 1 ? "" : "s", whose, d.first_line, d.last_line, idle);
  AppendBatches(d, out);
  AppendSpeculation(r, d, out);
  if (std::optional<double> off = d.GraphOffShare()) {
    *out += fmt::format("  CUDA graph   off in {} of {} busy reports ({:.0f}%)\n", d.graph_off,
                        d.graph_reports, *off * 100);
  }
  if (d.capped) {
    *out += fmt::format("  (more than {} reports: the medians are over the first ones)\n",
                        DecodeSummarizer::kMaxKeptSamples);
  }
}

}  // namespace kvplan
