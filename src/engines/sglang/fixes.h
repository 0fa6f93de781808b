// Fixes for an SGLang launch, found by re-planning with one flag changed.
#pragma once

#include "engines/sglang/sglang.h"

namespace kvplan {

// Appends to r->fixes the changes that make a failing launch start, or that
// give a working one more KV cache, each with its re-planned effect.
void SglangAddFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                    const SglangArgs& args, const SglangMeasured& measured, const ModelSpec* draft,
                    PlanResult* r);

// For a launch the engine cannot shard (heads or fp8 blocks not divisible):
// the expert-parallel and TP sizes that load, each re-planned.
void SglangAddShardingFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                            const SglangArgs& args, const SglangMeasured& measured,
                            const ModelSpec* draft, PlanResult* r);

// For --context-length above the model: the model's own length, and the
// environment override, each re-planned.
void SglangAddContextFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                           const SglangArgs& args, const SglangMeasured& measured,
                           const ModelSpec* draft, PlanResult* r);

// For weights larger than the GPU: the smallest TP size within an 8-GPU node
// that fits, else the smallest PP size over the largest TP that shards.
void SglangAddFitWeightsFixes(const std::string& version, const ModelSpec& model,
                              const GpuSpec& gpu, const SglangArgs& args,
                              const SglangMeasured& measured, const ModelSpec* draft,
                              PlanResult* r);

// The smallest mem_fraction_static (in steps of 0.001) with which the launch
// starts and holds at least `min_tokens` KV tokens; nullopt if none below 1.
std::optional<double> SglangMinimumFraction(const std::string& version, const ModelSpec& model,
                                            const GpuSpec& gpu, const SglangArgs& args,
                                            const SglangMeasured& measured, const ModelSpec* draft,
                                            int64_t min_tokens);

}  // namespace kvplan
