// The results of the models verb (kvplan/catalog.h names them): catalog
// types, so they are defined here, beside their renderers, and the CLI only
// passes them on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/architectures.h"
#include "catalog/model.h"
#include "catalog/weights.h"
#include "kvplan/catalog.h"

namespace kvplan {

struct ModelListing {
  struct Entry {
    std::string id;  // as the catalog lists it
    ModelSpec model;
    int64_t total_params = 0;  // the main model (MTP layers excluded)
  };
  std::vector<Entry> entries;  // catalog order
};

struct ArchitectureListing {
  std::vector<ArchitectureRow> rows;  // table order, refused ones last
};

struct ModelShow {
  ModelSpec model;
  Parallelism par;
  WeightEstimate weights;                      // under `par`
  std::vector<std::string> sharding_problems;  // why an engine refuses `par`
};

}  // namespace kvplan
