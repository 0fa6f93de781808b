#include "logs/log_file.h"

#include <fmt/core.h>

#include "logs/log_scanner.h"
#include "util/error.h"

namespace kvplan {

LoadedLog LoadLog(const std::string& path) {
  ScanResult scanned = ScanLogFile(path);
  LoadedLog out;
  out.runs = ReadRunsOrThrow(path, scanned);
  out.content_hash = scanned.content_hash;
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
