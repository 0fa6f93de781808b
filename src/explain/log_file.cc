#include "explain/log_file.h"

#include <utility>

#include <fmt/core.h>

#include "explain/default_rule.h"
#include "kvplan/error.h"
#include "logs/log_scanner.h"

namespace kvplan {

ScanOptions ReadOnlyScan() {
  ScanOptions o;
  o.hash_content = false;
  return o;
}

LoadedLog LoadLog(const std::string& path, const ScanOptions& options) {
  ScanResult scanned = ScanLogFile(path, options);
  LoadedLog out;
  out.runs = ReadRunsOrThrow(path, scanned);
  for (RunRecord& r : out.runs) ApplyDefaultRuleProvenance(&r);
  out.content_hash = scanned.content_hash;
  out.bytes = scanned.bytes;
  return out;
}

LoadedLog LoadLogText(std::string_view text) {
  ScanResult scanned = ScanLogText(text);
  LoadedLog out;
  out.runs = std::move(scanned.runs);
  for (RunRecord& r : out.runs) ApplyDefaultRuleProvenance(&r);
  out.content_hash = scanned.content_hash;
  out.bytes = scanned.bytes;
  return out;
}

const RunRecord& PickLaunch(const LoadedLog& log, const std::string& path, int launch) {
  int n = static_cast<int>(log.runs.size());
  if (launch == 0) return log.runs.back();
  if (launch < 1 || launch > n) {
    throw InputError(fmt::format("--launch {}: {} holds {} launch{} (expected 1..{})", launch, path,
                                 n, n == 1 ? "" : "es", n));
  }
  return log.runs[static_cast<size_t>(launch - 1)];
}

}  // namespace kvplan
