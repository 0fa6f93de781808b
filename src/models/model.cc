// PLACEHOLDER: replaced by the models implementation.
#include "models/model.h"

#include "util/error.h"

namespace kvplan {

int ModelSpec::NumLayersOfKind(LayerKind k) const {
  int n = 0;
  for (LayerKind lk : layer_kinds) n += (lk == k);
  return n;
}
ModelSpec LoadModel(const std::string& spec) {
  throw InputError("model loading not built yet: " + spec);
}
ModelSpec ParseModelConfig(std::string_view, const std::string& origin) {
  throw InputError("model parsing not built yet: " + origin);
}
std::vector<std::string> CatalogModelIds() { return {}; }

}  // namespace kvplan
