// `kvplan diff A.log B.log` and `kvplan diff --last-good LOG`: what differs
// between two launches, the differences that matter first, each memory change
// re-planned on A's measured memory. DiffLogs computes the result; the Render
// functions print it.
//
// The result's types are plain structs of the explain layer
// (explain/diff_types.h, which needs only logs/run_record.h).
#pragma once

#include <string>
#include <vector>

#include "explain/diff_types.h"

namespace kvplan {

struct DiffRequest {
  std::vector<std::string> logs;  // A.log B.log, or one LOG with last_good
  bool last_good = false;         // A: the newest successful run like LOG in the history
  std::string db;                 // the run history; "" = the default path
};

// Throws InputError for a wrong number of logs, an unreadable log, or no
// good run in the history.
DiffResult DiffLogs(const DiffRequest& request);

// The report as `kvplan diff` prints it.
std::string RenderDiffText(const DiffResult& diff);
// The JSON document of `kvplan diff --json` (indented, ends with a newline).
std::string RenderDiffJson(const DiffResult& diff);

}  // namespace kvplan
