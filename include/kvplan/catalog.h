// The bundled catalogs the models and gpus verbs list: the GPUs, the models,
// and one model's geometry with its weights per rank under a parallelism.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace kvplan {

// A GPU of the catalog (defined by the catalog; read it through kvplan/render.h).
struct GpuSpec;

// Every GPU of the catalog, in catalog order.
const std::vector<GpuSpec>& ListGpus();

// The bundled models, each with its parameter count.
struct ModelListing;
std::shared_ptr<const ModelListing> ListModels();

// The architecture table: each Hugging Face architecture name kvplan reads,
// with the layer kinds it uses, then those refused by name.
struct ArchitectureListing;
std::shared_ptr<const ArchitectureListing> ListArchitectures();

struct ModelShowRequest {
  std::string model;  // catalog id, config.json, model directory or HF id
  int tp = 1, pp = 1, dp = 1, ep = 1;
  bool dp_attention = false;  // SGLang --enable-dp-attention
  bool dp_lm_head = false;    // SGLang --enable-dp-lm-head
};

// One model's geometry and its weights per rank under the request's parallelism.
struct ModelShow;

// Throws InputError for an unknown model.
std::shared_ptr<const ModelShow> ShowModel(const ModelShowRequest& req);

}  // namespace kvplan
