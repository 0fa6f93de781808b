// The models and gpus verbs' computation (kvplan/catalog.h): catalog look-ups
// and the weight estimate, gathered into the values the renderers print.
#include "catalog/gpu.h"
#include "catalog/model_catalog.h"
#include "catalog/sharding.h"
#include "report/catalog_results.h"

namespace kvplan {

const std::vector<GpuSpec>& ListGpus() { return GpuCatalog(); }

std::shared_ptr<const ModelListing> ListModels() {
  auto listing = std::make_shared<ModelListing>();
  for (const std::string& id : CatalogModelIds()) {
    ModelSpec m = LoadModel(id);
    const int64_t params = EstimateWeights(m, {}).total_params;
    listing->entries.push_back({id, std::move(m), params});
  }
  return listing;
}

std::shared_ptr<const ArchitectureListing> ListArchitectures() {
  auto listing = std::make_shared<ArchitectureListing>();
  listing->rows = ArchitectureRows();
  return listing;
}

std::shared_ptr<const ModelShow> ShowModel(const ModelShowRequest& req) {
  auto show = std::make_shared<ModelShow>();
  show->model = LoadModel(req.model);
  show->par.tp = req.tp;
  show->par.pp = req.pp;
  show->par.dp = req.dp;
  show->par.ep = req.ep;
  show->par.dp_attention = req.dp_attention;
  show->par.dp_lm_head = req.dp_lm_head;
  show->weights = EstimateWeights(show->model, show->par);
  show->sharding_problems = ShardingProblems(show->model, show->par);
  return show;
}

}  // namespace kvplan
