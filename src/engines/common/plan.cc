#include "engines/common/plan.h"

namespace kvplan {

const Figure* PlanResult::FindFigure(const std::string& key) const {
  for (const Figure& f : figures) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

}  // namespace kvplan
