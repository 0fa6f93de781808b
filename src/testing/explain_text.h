// For tests: explain's text as the CLI prints it, the one result rendered.
#pragma once

#include <string>

#include "explain/explain.h"
#include "kvplan/explain.h"

namespace kvplan::testing {

inline std::string ExplainText(const RunRecord& r, const std::string& path, int launches,
                               const ExplainOptions& o) {
  return RenderExplainText(ExplainRun(r, path, launches, o));
}

}  // namespace kvplan::testing
