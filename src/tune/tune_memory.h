// The memory side of `kvplan tune`: SGLang's own planner (PlanSglang) for one
// candidate, and an allocation-free replay of its last steps for other
// mem_fraction_static values of the same launch. The replay mirrors
// model_runner.py profile_max_num_token / init_memory_pool of the newest
// modelled release and is used only where it reproduces the planner at the
// automatic fraction (checked per launch at run time, and on a grid by
// tune/tune_memory_test.cc); everything else goes through PlanSglang.
#pragma once

#include <cstdint>

#include "engines/sglang/sglang.h"

namespace kvplan {

// What the search needs from one plan; plain data.
struct MemPoint {
  bool ok = false;
  double mfs = 0;
  int64_t pre = 0;
  int64_t tokens = 0;
  int64_t max_running = 0;
  int64_t context_len = 0;
};

// The mfs-independent facts of one launch, from one explained plan.
struct MemFacts {
  MemPoint at_auto;  // the plan at SGLang's automatic fraction
  int64_t post = 0;  // post-load free bytes
  int64_t cell = 0;  // KV bytes per token per rank
  int64_t page = 1;
  bool float32_free = false;  // world > 1: free memory is all-reduced as float32
  bool speculative = false;
  bool replayable = false;  // the replay reproduces at_auto exactly
};

// One PlanSglang call; InputError from the engine's own checks becomes !ok.
MemPoint PlanMemoryPoint(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                         const SglangArgs& args, const ModelSpec* draft);

// PlanSglang at the automatic fraction (with the explanation, for the page
// size) and whether the replay reproduces it. `version` must be the newest
// modelled release ("") for the replay to be used; multimodal models and
// hybrid sliding-window pools are never replayed.
MemFacts PlanMemoryFacts(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                         SglangArgs args, const ModelSpec* draft);

// The replay at `mfs`: no allocation.
MemPoint ReplayMemory(const MemFacts& f, double mfs);

}  // namespace kvplan
