// `kvplan plan` and `kvplan perf` on the same launches must agree on every
// engine setting both of them resolve: the speculative steps / top-k / draft
// tokens, the decode capture list, the graph memory of the target and the
// draft, and which --attention-backend values exist. The plan side is the
// engine's planner (PlanSglangRequest, what `kvplan plan` runs); the perf
// side is what `kvplan perf` and `kvplan tune` compute from the same flags.
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "catalog/model.h"
#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"
#include "engines/vllm/estimates.h"
#include "perf/attention_kernels.h"
#include "perf/cuda_graph.h"
#include "perf/perf_report.h"
#include "perf/speculative.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

struct Launch {
  std::string version;  // "" = newest
  std::string model, gpu;
  int tp = 1;
  std::string algo;  // "" = no speculation
  std::string draft;
  std::optional<int> steps, topk, draft_tokens;
  std::optional<int> cuda_graph_max_bs;
  std::string attention_backend;
};

Launch Make(std::string version, std::string model, std::string gpu, int tp, std::string algo = "",
            std::string draft = "", std::optional<int> steps = {}, std::optional<int> topk = {},
            std::optional<int> draft_tokens = {}) {
  Launch l;
  l.version = std::move(version);
  l.model = std::move(model);
  l.gpu = std::move(gpu);
  l.tp = tp;
  l.algo = std::move(algo);
  l.draft = std::move(draft);
  l.steps = steps;
  l.topk = topk;
  l.draft_tokens = draft_tokens;
  return l;
}

std::string Name(const Launch& l) {
  return fmt::format(
      "sglang@{} {} on {} tp {} spec '{}'{}", l.version.empty() ? "newest" : l.version, l.model,
      l.gpu, l.tp, l.algo,
      l.steps ? fmt::format(" {}/{}/{}", *l.steps, l.topk.value_or(0), l.draft_tokens.value_or(0))
              : "");
}

std::vector<std::string> SglangFlags(const Launch& l) {
  std::vector<std::string> a = {"--model-path", l.model, "--tp", std::to_string(l.tp)};
  auto add = [&a](const char* flag, const std::string& v) {
    a.push_back(flag);
    a.push_back(v);
  };
  if (!l.algo.empty()) add("--speculative-algorithm", l.algo);
  if (!l.draft.empty()) add("--speculative-draft-model-path", l.draft);
  if (l.steps) add("--speculative-num-steps", std::to_string(*l.steps));
  if (l.topk) add("--speculative-eagle-topk", std::to_string(*l.topk));
  if (l.draft_tokens) add("--speculative-num-draft-tokens", std::to_string(*l.draft_tokens));
  if (l.cuda_graph_max_bs) add("--cuda-graph-max-bs", std::to_string(*l.cuda_graph_max_bs));
  if (!l.attention_backend.empty()) add("--attention-backend", l.attention_backend);
  return a;
}

PlanResult Plan(const Launch& l) {
  PlanRequest req;
  req.engine = "sglang";
  req.version = l.version;
  req.args = SglangFlags(l);
  req.gpu = l.gpu;
  return PlanSglangRequest(req);
}

double Fig(const PlanResult& r, const char* key) {
  const Figure* f = r.FindFigure(key);
  EXPECT_NE(f, nullptr) << key;
  return f ? f->value : -1;
}

// The capture list of the planner's era at the plan's largest batch.
size_t PlannerCaptureCount(const Launch& l, int64_t max_bs) {
  std::string canonical;
  int64_t key = 0;
  const SglangEra& era = SglangEraFor(l.version, &canonical, &key);
  const ModelSpec model = LoadModel(l.model);
  SglangArgs a;
  a.tp = l.tp;
  a.cuda_graph_max_bs = max_bs;
  SglangDefaultsInput in;
  in.version = key;
  in.explain = false;
  in.args = &a;
  in.model = &model;
  in.gpu_mem_mib = FindGpu(l.gpu).capacity_mib;
  in.is_mla = model.attention == AttentionKind::kMla;
  in.speculative = !l.algo.empty();
  return era.defaults(in).capture_bs.size();
}

// The perf side, as `kvplan perf --engine sglang@VERSION` builds its request.
PerfRequest PerfOf(const Launch& l, int cuda_graph_max_bs) {
  PerfRequest r;
  r.model = LoadModel(l.model);
  r.gpu = FindGpu(l.gpu);
  r.par.tp = l.tp;
  r.sglang_version = l.version;
  r.cuda_graph_max_bs = cuda_graph_max_bs;
  r.batch_sizes = {1};
  r.prompt_lengths = {128};
  r.spec = ResolveSglangSpec(ParseSpecAlgorithm(l.algo), r.model.architecture, l.steps, l.topk,
                             l.draft_tokens, l.version);
  if (!l.draft.empty()) r.draft = LoadModel(l.draft);
  CheckSglangAttentionBackend(l.attention_backend);
  r.attention_backend = l.attention_backend;
  return r;
}

void ExpectAgreement(const Launch& l) {
  SCOPED_TRACE(Name(l));
  const PlanResult plan = Plan(l);
  const int max_bs = static_cast<int>(Fig(plan, "cuda_graph_max_bs"));
  const PerfRequest req = PerfOf(l, max_bs);
  const PerfReport perf = RunPerf(req);
  const bool spec = !l.algo.empty();
  if (spec) {
    EXPECT_EQ(req.spec.num_steps, Fig(plan, "speculative_num_steps"));
    EXPECT_EQ(req.spec.eagle_topk, Fig(plan, "speculative_eagle_topk"));
    EXPECT_EQ(req.spec.num_draft_tokens, Fig(plan, "speculative_num_draft_tokens"));
  }
  EXPECT_EQ(perf.cuda_graph_max_bs, max_bs);
  EXPECT_EQ(static_cast<size_t>(perf.cuda_graphs), PlannerCaptureCount(l, max_bs));
  const double plan_graphs = Fig(plan, "cuda_graph_estimate_bytes");
  const double plan_draft_graphs = spec ? Fig(plan, "draft_graph_estimate_bytes") : 0;
  EXPECT_EQ(static_cast<double>(perf.cuda_graph_bytes), plan_graphs - plan_draft_graphs);
  if (spec) {
    const ModelGeometry target = MakeGeometry(req.model);
    const ModelGeometry draft = req.draft ? MakeGeometry(*req.draft) : MtpDraftGeometry(target);
    const SpecMemory m = SpeculativeMemory(draft, req.par, 2, req.spec, max_bs, !req.draft);
    EXPECT_EQ(static_cast<double>(m.graph_bytes), plan_draft_graphs);
  }
}

const char* kQwen3 = "Qwen/Qwen3-8B";
const char* kLlama = "meta-llama/Llama-3.1-8B-Instruct";
const char* kLlamaEagle3 = "sgl-project/SpecForge-llama3-8B-eagle3";
const char* kLlamaEagle = "SafeAILab/EAGLE-traineagle3-llama3.1-8b-draft";
const char* kDeepseek = "deepseek-ai/DeepSeek-V3";

TEST(PlanPerfAgreement, NoSpeculation) {
  for (const char* v : {"0.4.6", "0.5.3", "0.5.6", ""}) {
    ExpectAgreement(Make(v, kLlama, "h100-sxm", 1));
    ExpectAgreement(Make(v, kQwen3, "h200", 2));
    Launch l = Make(v, kQwen3, "h100-sxm", 1);
    l.cuda_graph_max_bs = 96;
    ExpectAgreement(l);
  }
}

TEST(PlanPerfAgreement, Eagle3AutoParameters) {
  for (const char* v : {"0.4.6", "0.5.3", "0.5.6", ""}) {
    ExpectAgreement(Make(v, kQwen3, "h100-sxm", 1, "EAGLE3", kLlamaEagle3));
    ExpectAgreement(Make(v, kLlama, "h100-sxm", 1, "EAGLE3", kLlamaEagle3));
  }
}

TEST(PlanPerfAgreement, Eagle3UserParameters) {
  for (const char* v : {"0.4.6", "0.5.3", "0.5.6", ""}) {
    Launch chain = Make(v, kQwen3, "h100-sxm", 1, "EAGLE3", kLlamaEagle3, 3, 1, 4);
    ExpectAgreement(chain);
    Launch tree = Make(v, kLlama, "h200", 1, "EAGLE3", kLlamaEagle3, 4, 2, 8);
    ExpectAgreement(tree);
    // Steps and top-k without draft tokens: the release's automatic count.
    Launch partial = Make(v, kLlama, "h200", 1, "EAGLE3", kLlamaEagle3, 5, 4, std::nullopt);
    ExpectAgreement(partial);
  }
}

TEST(PlanPerfAgreement, EagleAndNextn) {
  for (const char* v : {"0.4.6", "0.5.6", ""}) {
    ExpectAgreement(Make(v, kLlama, "h100-sxm", 1, "EAGLE", kLlamaEagle));
    ExpectAgreement(Make(v, kDeepseek, "h200", 8, "NEXTN"));
    ExpectAgreement(Make(v, kDeepseek, "h200", 8, "NEXTN", "", 2, 1, 3));
  }
}

// Both refuse a backend SGLang does not have, with the same message.
TEST(PlanPerfAgreement, AttentionBackendChoices) {
  Launch l = Make("0.5.6", kQwen3, "h100-sxm", 1);
  l.attention_backend = "nonsense";
  const std::string plan_error = testing::InputErrorOf([&] { Plan(l); });
  const std::string perf_error = testing::InputErrorOf([&] { PerfOf(l, 256); });
  EXPECT_FALSE(perf_error.empty());
  EXPECT_EQ(plan_error, perf_error);
  l.attention_backend = "flashinfer";
  ExpectAgreement(l);
}

// vLLM: the capture sizes perf replays are the planner's.
TEST(PlanPerfAgreement, VllmCaptureSizes) {
  for (int seqs : {16, 128, 256, 1024}) {
    int64_t largest = 0;
    const int count = VllmCudaGraphCount(seqs, &largest);
    const std::vector<int> sizes = VllmCaptureSizes(seqs);
    EXPECT_EQ(static_cast<int>(sizes.size()), count) << seqs;
    EXPECT_EQ(sizes.back(), largest) << seqs;
  }
}

}  // namespace
}  // namespace kvplan
