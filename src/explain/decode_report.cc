#include "explain/decode_report.h"

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

// The draft's architecture says EAGLE-3 (kvplan's catalog or a local config),
// or failing that its name does.
bool DraftIsEagle3(const std::string& algorithm, const LoggedDraft& draft, bool* by_name) {
  *by_name = false;
  if (draft.spec) {
    ModelSpec spec = *draft.spec;
    return SglangEagleWithEagle3Draft(algorithm, &spec);
  }
  std::string name = Lower(draft.path);
  *by_name = name.find("eagle3") != std::string::npos || name.find("eagle-3") != std::string::npos;
  return *by_name && Lower(algorithm) == "eagle";
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

LoggedDraft LoadDraftOf(const RunRecord& r) {
  LoggedDraft draft{DraftOf(r), std::nullopt};
  if (draft.path.empty()) return draft;
  try {
    draft.spec = LoadModel(draft.path);
  } catch (const std::exception&) {  // not in the catalog nor a local config
  }
  return draft;
}

std::optional<std::string> NothingAcceptedCause(const RunRecord& r) {
  std::string spec = SpeculationOf(r);
  const std::optional<double>& accept = r.decode.mean_accept_len;
  if (spec.empty() || !accept || *accept > kNothingAccepted) return std::nullopt;
  return NothingAcceptedCause(r, LoadDraftOf(r));
}

std::optional<std::string> NothingAcceptedCause(const RunRecord& r, const LoggedDraft& loaded) {
  std::string spec = SpeculationOf(r);
  const std::optional<double>& accept = r.decode.mean_accept_len;
  if (spec.empty() || !accept || *accept > kNothingAccepted) return std::nullopt;
  const std::string& draft = loaded.path;
  if (r.engine == "sglang" && Lower(spec) == "eagle") {
    bool by_name = false;
    if (!draft.empty() && DraftIsEagle3(spec, loaded, &by_name)) {
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

}  // namespace kvplan
