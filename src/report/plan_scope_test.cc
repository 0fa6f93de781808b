// The plan's verdict and JSON say whose KV tokens they count (issue 11 item 4): one GPU's,
// a replica's shared by its GPUs, or a DP attention rank's, with the deployment's total
// where several pools serve.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kvplan/render.h"

namespace kvplan {
namespace {

PlanResult OkPlan(KvScope scope) {
  PlanResult r;
  r.engine = "vllm";
  r.ok = true;
  r.cell_size_bytes = 36864;
  r.max_total_num_tokens = 100000;
  r.max_running_requests = 256;
  r.context_length = 10000;
  r.kv_scope = scope;
  return r;
}

// The plan text with the verdict's wrapped lines joined again.
std::string Unwrapped(const PlanResult& r, const PlanContext& ctx) {
  std::string text = RenderPlanText(r, ctx);
  for (size_t at = text.find("\n  "); at != std::string::npos; at = text.find("\n  ", at)) {
    text.replace(at, 3, " ");
  }
  return text;
}

// The verdict up to its request limit.
std::string VerdictOf(const PlanResult& r) {
  const std::string text = Unwrapped(r, {"m", "h100", r.kv_scope.gpus});
  const size_t at = text.find("Verdict: ");
  return at == std::string::npos ? "" : text.substr(at, text.find(", max_running", at) - at);
}

TEST(PlanScopeText, OneGpuIsPerGpu) {
  const std::string text = RenderPlanText(OkPlan({}), {"m", "h100", 1});
  EXPECT_NE(text.find("Verdict: OK. 100,000 KV tokens per GPU (36,864 B per token), "
                      "max_running_requests 256"),
            std::string::npos)
      << text;
}

TEST(PlanScopeText, AReplicaNamesItsGpusAndTheBytesOfEach) {
  const std::string text =
      RenderPlanText(OkPlan({KvScope::Kind::kReplica, 4, 1}), {"m", "h100", 4});
  EXPECT_NE(text.find("100,000 KV tokens per replica (4 GPUs) (36,864 B per token on each GPU)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("per GPU ("), std::string::npos) << text;
}

TEST(PlanScopeText, SeveralPoolsAddTheDeploymentsTotal) {
  const std::string text = Unwrapped(OkPlan({KvScope::Kind::kReplica, 2, 3}), {"m", "h100", 2});
  EXPECT_NE(text.find("100,000 KV tokens per replica (2 GPUs), 300,000 in the whole deployment "
                      "(3 replicas, 6 GPUs)"),
            std::string::npos)
      << text;
  EXPECT_EQ(VerdictOf(OkPlan({KvScope::Kind::kDpRank, 2, 4})),
            "Verdict: OK. 100,000 KV tokens per DP attention rank (2 GPUs), 400,000 in the whole "
            "deployment (4 DP attention ranks, 8 GPUs) (36,864 B per token on each GPU)");
  const std::string ranks_of_one = Unwrapped(OkPlan({KvScope::Kind::kGpu, 1, 8}), {});
  EXPECT_NE(ranks_of_one.find(
                "100,000 KV tokens per GPU, 800,000 in the whole deployment (8 GPUs) (36,864 B "
                "per token)"),
            std::string::npos)
      << ranks_of_one;
}

TEST(PlanScopeJson, TheScopeAndTheDeploymentsTotal) {
  const nlohmann::json j =
      nlohmann::json::parse(RenderPlanJson(OkPlan({KvScope::Kind::kDpRank, 2, 4}), {}));
  EXPECT_EQ(j["max_total_num_tokens"], 100000);
  EXPECT_EQ(j["kv_scope"]["per"], "dp_attention_rank");
  EXPECT_EQ(j["kv_scope"]["gpus_per_pool"], 2);
  EXPECT_EQ(j["kv_scope"]["pools"], 4);
  EXPECT_EQ(j["kv_scope"]["deployment_kv_tokens"], 400000);
  const nlohmann::json one = nlohmann::json::parse(RenderPlanJson(OkPlan({}), {}));
  EXPECT_EQ(one["kv_scope"]["per"], "gpu");
  EXPECT_EQ(one["kv_scope"]["deployment_kv_tokens"], 100000);
}

}  // namespace
}  // namespace kvplan
