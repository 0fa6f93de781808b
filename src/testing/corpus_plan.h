// The launch one row of a real-log table names (calibration.tsv, weights.tsv, pool_tokens.tsv,
// failed_launches.tsv), as the PlanRequest every corpus test plans: the tables share the
// columns engine, version, args, model and gpu.
#pragma once

#include <string>

#include "kvplan/plan.h"
#include "testing/test_data.h"

namespace kvplan::testing {

// A model named "configs/..." is a config.json under tests/data/real/configs/ for a model the
// catalog lacks; any other name is a catalog id.
inline std::string CorpusModel(const std::string& model) {
  return model.rfind("configs/", 0) == 0 ? RealData(model) : model;
}

template <class Row>
PlanRequest CorpusPlanRequest(const Row& row) {
  PlanRequest req;
  req.engine = row.engine;
  req.version = row.version;
  req.args = row.args;
  req.model = CorpusModel(row.model);
  req.gpu = row.gpu;
  return req;
}

}  // namespace kvplan::testing
