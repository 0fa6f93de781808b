// `kvplan runs --json`, rendered from the history listing, whole or run by run.
#include <nlohmann/json.hpp>

#include "kvplan/history.h"
#include "logs/run_record_json.h"

namespace kvplan {
namespace {

// The TP the log shows, null where it shows none (RunRecord::LoggedTp): never a silent 1.
nlohmann::json LoggedTpJson(const RunRecord& r) {
  std::optional<int64_t> tp = r.LoggedTp();
  return tp ? nlohmann::json(*tp) : nlohmann::json(nullptr);
}

}  // namespace

// One element of the array exactly as nlohmann indents it inside an array of
// indent 2: its own dump with every line moved right by two spaces (strings
// hold no raw newline, they are escaped).
std::string RenderHistoryJsonRun(const StoredRun& s, bool first) {
  nlohmann::json element = {{"id", s.id},
                            {"log", s.log_path},
                            {"log_hash", s.log_hash},
                            {"ingested_at", s.ingested_at},
                            {"tp", LoggedTpJson(s.record)},
                            {"run", ToJson(s.record)}};
  std::string text = DumpJson(element, 2);
  std::string out = first ? "[\n  " : ",\n  ";
  out.reserve(out.size() + text.size() + text.size() / 16);
  for (char c : text) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

std::string RenderHistoryJsonEnd(bool any_runs) { return any_runs ? "\n]\n" : "[]\n"; }

std::string RenderHistoryJson(const HistoryListing& h) {
  std::string out;
  for (size_t i = 0; i < h.runs.size(); ++i) out += RenderHistoryJsonRun(h.runs[i], i == 0);
  return out + RenderHistoryJsonEnd(!h.runs.empty());
}

}  // namespace kvplan
