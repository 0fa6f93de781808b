// What kvplan says of DeepSeek-V4 under vLLM: the release must serve the model, and vLLM's
// own KV-cache layout for it (v1/core/kv_cache_utils.py _get_kv_cache_config_deepseek_v4:
// a sliding-window cache in every layer, compressed MLA caches on the c4 and c128 layers,
// the indexer's cache and the compressors' state caches, packed into shared pages) is not
// modelled: the plan stops after the weights with one line saying so.
#pragma once

#include <string>

#include "catalog/model.h"
#include "engines/vllm/release.h"

namespace kvplan {

// "" for a model without compressed attention; otherwise the one-line reason the plan stops.
std::string VllmDeepseekV4NotModelled(const ModelSpec& model, const VllmRelease& release);

}  // namespace kvplan
