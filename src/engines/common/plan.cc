#include "engines/common/plan.h"

#include <algorithm>

namespace kvplan {

const Figure* PlanResult::FindFigure(const std::string& key) const {
  for (const Figure& f : figures) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

KvScope KvScopeOf(int gpus_per_pool, int pools, bool dp_attention) {
  KvScope s;
  s.gpus = std::max(1, gpus_per_pool);
  s.pools = std::max(1, pools);
  if (s.gpus == 1) {
    s.kind = KvScope::Kind::kGpu;
  } else {
    s.kind = dp_attention ? KvScope::Kind::kDpRank : KvScope::Kind::kReplica;
  }
  return s;
}

const char* KvScopeName(KvScope::Kind kind) {
  switch (kind) {
    case KvScope::Kind::kGpu:
      return "GPU";
    case KvScope::Kind::kReplica:
      return "replica";
    case KvScope::Kind::kDpRank:
      return "DP attention rank";
  }
  return "GPU";
}

}  // namespace kvplan
