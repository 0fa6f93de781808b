// The bundled model catalog: data/models/ORG--NAME.json, embedded in the
// binary (see cmake/embed_data.cmake) and addressed as "ORG/NAME".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kvplan {

struct CatalogEntry {
  std::string id;                // "Qwen/Qwen3-8B"
  std::string_view config_json;  // the embedded file
  // data/models/hf_quant/ORG--NAME.json: the checkpoint's hf_quant_config.json, for ModelOpt
  // exports whose config.json carries no quantization_config; empty when there is none.
  std::string_view hf_quant_config_json;
};

// Finds "ORG/NAME" or "ORG--NAME", case-insensitively; nullopt when absent.
std::optional<CatalogEntry> FindCatalogModel(std::string_view id);

}  // namespace kvplan
