// Models without attention layers (Mamba-1, Mamba2) under SGLang: its models/mamba2.py and
// models/mamba.py serve them through their own configs (2026, after the releases kvplan
// dates), a pool kvplan does not model; the plan says so instead of planning an empty KV cache.
#include <gtest/gtest.h>

#include <string>

#include "catalog/gpu.h"
#include "engines/sglang/sglang.h"
#include "testing/sglang_test_models.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

TEST(SglangStateOnly, RefusedAsNotModelled) {
  for (const char* file : {"configs/state-spaces--mamba2-780m.quoted.json",
                           "configs/state-spaces--mamba-130m-hf.json"}) {
    const ModelSpec m = LoadModel(testing::RealData(file));
    SglangArgs a;
    a.context_length = 4096;
    PlanResult r = PlanSglang("0.5.5", m, FindGpu("h100"), a, testing::Measured(78, 76));
    EXPECT_FALSE(r.ok) << file;
    EXPECT_TRUE(r.not_modelled) << file;
    EXPECT_NE(r.error_message.find("a model without attention layers"), std::string::npos)
        << r.error_message;
  }
}

}  // namespace
}  // namespace kvplan
