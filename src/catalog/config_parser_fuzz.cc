// libFuzzer target: any bytes given to ParseModelConfig (and, when they parse,
// EstimateWeights) either work or raise InputError; nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/model.h"
#include "catalog/sharding.h"
#include "catalog/weights.h"
#include "kvplan/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    kvplan::ModelSpec m = kvplan::ParseModelConfig(text, "fuzz");
    kvplan::Parallelism p;
    p.tp = 2;
    kvplan::EstimateWeights(m, p);
    kvplan::ShardingProblems(m, p);
  } catch (const kvplan::InputError&) {
  }
  return 0;
}
