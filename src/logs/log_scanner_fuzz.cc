// libFuzzer target: a whole log through the scanner (line reader with a small
// buffer so cut lines happen, prefixes, SGLang and vLLM line handlers, run
// boundaries), then explain and diff on every run found. Bad input may give
// an InputError (a clear message); anything else escaping is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "explain/explain.h"
#include "explain/run_diff.h"
#include "kvplan/diff.h"
#include "kvplan/error.h"
#include "kvplan/explain.h"
#include "logs/log_scanner.h"
#include "logs/run_record_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  kvplan::ScanOptions options;
  options.buffer_bytes = 256;
  kvplan::ScanResult r = kvplan::ScanLogText(text, options);
  if (r.bytes != static_cast<int64_t>(size)) std::abort();
  for (const kvplan::RunRecord& run : r.runs) {
    if (run.outcome != "ok" && run.outcome != "failed" && run.outcome != "incomplete") {
      std::abort();
    }
    (void)kvplan::DumpJson(kvplan::ToJson(run));
    try {
      kvplan::ExplainOptions o;
      o.sets.push_back({"--mem-fraction-static", "0.5"});
      (void)kvplan::RenderExplainText(
          kvplan::ExplainRun(run, "fuzz.log", static_cast<int>(r.runs.size()), o));
    } catch (const kvplan::InputError&) {
    }
    (void)kvplan::RenderDiffText(kvplan::DiffRuns(r.runs.front(), "A", run, "B"));
  }
  return 0;
}
