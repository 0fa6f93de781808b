#include "tune/tune_memory.h"

#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "catalog/model.h"

namespace kvplan {
namespace {

// The replay must give exactly what SGLang's planner gives for every
// mem_fraction_static the search tries, wherever it claims to apply.
void ExpectReplayMatchesPlanner(const std::string& model_id, const std::string& gpu_id,
                                int* replayed) {
  const ModelSpec model = LoadModel(model_id);
  const GpuSpec& gpu = FindGpu(gpu_id);
  for (int tp : {1, 2, 4, 8}) {
    if (model.num_attention_heads % tp != 0) continue;
    for (int cgbs : {32, 512}) {
      for (const char* kv : {"auto", "fp8_e4m3"}) {
        SglangArgs a;
        a.tp = tp;
        a.cuda_graph_max_bs = cgbs;
        a.kv_cache_dtype = kv;
        a.chunked_prefill_size = 8192;
        const MemFacts f = PlanMemoryFacts("", model, gpu, a, nullptr);
        if (!f.replayable) continue;
        ++*replayed;
        for (double mfs = 0.30; mfs < 0.96; mfs += 0.0137) {
          a.mem_fraction_static = mfs;
          const MemPoint plan = PlanMemoryPoint("", model, gpu, a, nullptr);
          const MemPoint replay = ReplayMemory(f, mfs);
          ASSERT_EQ(replay.ok, plan.ok) << model_id << " tp" << tp << " mfs " << mfs;
          if (!plan.ok) continue;
          EXPECT_EQ(replay.tokens, plan.tokens) << model_id << " tp" << tp << " mfs " << mfs;
          EXPECT_EQ(replay.max_running, plan.max_running) << model_id << " tp" << tp;
        }
      }
    }
  }
}

TEST(TuneMemory, ReplayEqualsPlannerOnTheGrid) {
  int replayed = 0;
  ExpectReplayMatchesPlanner("meta-llama/Llama-3.1-8B-Instruct", "h100-sxm", &replayed);
  ExpectReplayMatchesPlanner("deepseek-ai/DeepSeek-V3", "h200", &replayed);
  ExpectReplayMatchesPlanner("Qwen/Qwen3-235B-A22B-FP8", "rtx-pro-6000-server", &replayed);
  ExpectReplayMatchesPlanner("Qwen/Qwen3-30B-A3B", "l40s", &replayed);
  // Sliding-window models: replayed only where it matches.
  ExpectReplayMatchesPlanner("google/gemma-2-9b-it", "h100-sxm", &replayed);
  ExpectReplayMatchesPlanner("openai/gpt-oss-20b", "h100-sxm", &replayed);
  EXPECT_GE(replayed, 20);
}

TEST(TuneMemory, NotReplayedWhereTheRulesDiffer) {
  SglangArgs a;
  a.tp = 1;
  // An older release: always the planner.
  EXPECT_FALSE(PlanMemoryFacts("0.4.6", LoadModel("meta-llama/Llama-3.1-8B-Instruct"),
                               FindGpu("h100-sxm"), a, nullptr)
                   .replayable);
}

}  // namespace
}  // namespace kvplan
