// TensorRT-LLM's KV-cache sizing at start-up (../shared/reference/
// vllm-trtllm-memory.md section 3): free_gpu_memory_fraction of the memory that
// is free after loading, for the PyTorch backend (KvCacheCreator, the default
// since 1.0) and for TensorRT engines (the C++ KV cache manager).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/common/plan.h"

namespace kvplan {

struct TrtllmArgs {
  std::string model;
  int tp = 1, pp = 1, ep = 1;
  bool enable_attention_dp = false;
  std::optional<double> free_gpu_memory_fraction;
  std::optional<int64_t> max_tokens;  // kv_cache_config.max_tokens
  std::optional<int64_t> max_num_tokens;
  std::optional<int64_t> max_batch_size;
  std::optional<int64_t> max_seq_len;
  std::optional<int64_t> tokens_per_block;
  std::string kv_dtype = "auto";  // kv_cache_config.dtype
  std::string backend;            // "pytorch", "tensorrt" ("" = the release default)
  std::string extra_options_path;
  std::vector<std::string> unknown_flags;
  std::vector<std::string> ignored_yaml_keys;
};

// Parses trtllm-serve's flags (`trtllm-serve [serve] MODEL --tp_size 4 ...`).
// --extra_llm_api_options names a YAML file, read with the small subset reader.
// With data/flags/trtllm/ holding `release`'s parser (engines/trtllm/flags.h),
// a flag or YAML key that release refuses is refused in its own words.
TrtllmArgs ParseTrtllmArgs(const std::vector<std::string>& argv, const std::string& release = "");

// Applies --extra_llm_api_options YAML text (ParseTrtllmArgs reads the file).
void ApplyTrtllmYaml(const std::string& yaml_text, const std::string& origin, TrtllmArgs* args);

struct TrtllmMeasured {
  std::optional<int64_t> total;
  std::optional<int64_t> weights;
  std::optional<int64_t> activation_peak;
  std::optional<int64_t> non_torch;
  std::optional<int64_t> post_load_free;  // free memory after loading and profiling
};

// PlanRequest::measured_gib keys: total, weights, activation_peak, non_torch, post_load_free.
TrtllmMeasured TrtllmMeasuredFromGiB(const std::map<std::string, double>& gib);

PlanResult PlanTrtllm(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                      const TrtllmArgs& args, const TrtllmMeasured& measured);

std::vector<std::string> TrtllmVersions();

// The engine-neutral entry point: parses req.args with the engine's own flag
// names, loads the model and GPU, and plans (engines/trtllm/request.cc).
PlanResult PlanTrtllmRequest(const PlanRequest& req);

}  // namespace kvplan
