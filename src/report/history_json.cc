// `kvplan runs --json`, rendered from the history listing.
#include <nlohmann/json.hpp>

#include "kvplan/history.h"
#include "logs/run_record_json.h"

namespace kvplan {

std::string RenderHistoryJson(const HistoryListing& h) {
  nlohmann::json out = nlohmann::json::array();
  for (const StoredRun& s : h.runs) {
    out.push_back({{"id", s.id},
                   {"log", s.log_path},
                   {"log_hash", s.log_hash},
                   {"ingested_at", s.ingested_at},
                   {"run", ToJson(s.record)}});
  }
  return DumpJson(out, 2) + "\n";
}

}  // namespace kvplan
