// kvplan's decode prediction beside the measured figures, on the synthetic
// decode logs of tests/data/synthetic (make_decode_logs.py: Llama-3.1-8B-Instruct, TP 2,
// SGLang v0.4.9 lines; the logs carry no nvidia-smi table, so the tests name
// the GPU as `kvplan explain --gpu` does). The checks are properties that hold
// whatever the efficiency factors: a roofline bound, orderings, and the
// proportionality of speculative throughput to the accept length.
#include "explain/decode_prediction.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/gpu.h"
#include "explain/explain.h"
#include "kvplan/explain.h"
#include "logs/log_scanner.h"
#include "testing/explain_text.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using testing::ExplainText;

RunRecord LoadOnGpu(const std::string& name, const std::string& gpu = "NVIDIA H100 80GB HBM3") {
  std::vector<RunRecord> runs = ScanLogFile(kvplan::testing::SyntheticData(name)).runs;
  EXPECT_EQ(runs.size(), 1u);
  RunRecord r = runs.at(0);
  r.gpu_name = gpu;
  return r;
}

const DecodePredictionRow* At(const DecodePrediction& p, int64_t running) {
  for (const DecodePredictionRow& row : p.rows) {
    if (row.running_reqs == running) return &row;
  }
  return nullptr;
}

void SetSetting(RunRecord* r, const std::string& key, const std::string& value) {
  for (LoggedSetting& s : r->settings) {
    if (s.key == key) s.value = value;
  }
}

bool Names(const DecodePrediction& p, const std::string& text) {
  for (const std::string& i : p.inputs) {
    if (i.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(DecodePrediction, PlainRunIsPositiveAndBelowTheWeightStreamingBound) {
  DecodePrediction p = PredictDecode(LoadOnGpu("sglang/decode_llama8b_no_spec.log"));
  ASSERT_TRUE(p.why_not.empty()) << p.why_not;
  // The log's most common count is 1 request (9 of 12 busy reports), so one row.
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0].running_reqs, 1);
  EXPECT_DOUBLE_EQ(p.rows[0].measured_tok_s, 81.57);
  EXPECT_GT(p.rows[0].predicted_tok_s, 0);
  // Each decode step streams every weight once: 8,030,261,248 params x 2 B
  // split over TP 2 = 8.03e9 B per rank (the norms replicated: ~0.3 MB more).
  // One request cannot go faster than HBM bandwidth / those bytes.
  const double bound = FindGpu("h100-sxm").hbm_bandwidth / 8.03e9;
  EXPECT_LT(p.rows[0].predicted_tok_s, bound);
  // Named, not silently assumed: the context, and the fabric between the 2 GPUs.
  EXPECT_TRUE(Names(p, "context 2048 assumed"));
  EXPECT_TRUE(Names(p, "topology nvswitch from the GPU"));
}

TEST(DecodePrediction, EagleAcceptingNothingIsSlowerThanPlainDecode) {
  DecodePrediction plain = PredictDecode(LoadOnGpu("sglang/decode_llama8b_no_spec.log"));
  DecodePrediction eagle =
      PredictDecode(LoadOnGpu("sglang/decode_llama8b_eagle_with_eagle3_draft.log"));
  ASSERT_TRUE(eagle.why_not.empty()) << eagle.why_not;
  ASSERT_NE(At(plain, 1), nullptr);
  ASSERT_NE(At(eagle, 1), nullptr);
  // Accept length 1.00: one token per iteration, and an iteration is a verify
  // pass (at least a decode step) plus the draft passes.
  EXPECT_GT(At(eagle, 1)->predicted_tok_s, 0);
  EXPECT_LT(At(eagle, 1)->predicted_tok_s, At(plain, 1)->predicted_tok_s);
  EXPECT_TRUE(Names(eagle, "accept length 1.00 measured"));
}

TEST(DecodePrediction, SglangSpeculativeThroughputIsProportionalToTheAcceptLength) {
  RunRecord r = LoadOnGpu("sglang/decode_llama8b_eagle3.log");
  ASSERT_TRUE(r.decode.mean_accept_len);
  DecodePrediction base = PredictDecode(r);
  ASSERT_TRUE(base.why_not.empty()) << base.why_not;
  ASSERT_NE(At(base, 1), nullptr);
  EXPECT_GT(At(base, 1)->predicted_tok_s, 0);
  const double tau = *r.decode.mean_accept_len;
  r.decode.mean_accept_len = tau + 1.0;
  DecodePrediction more = PredictDecode(r);
  ASSERT_NE(At(more, 1), nullptr);
  // SGLang's iteration (num_steps - 1 draft passes, one draft extend, one
  // verify over the draft tokens) costs the same whatever is accepted, so
  // tokens per second scale with tau.
  EXPECT_NEAR(At(more, 1)->predicted_tok_s / At(base, 1)->predicted_tok_s, (tau + 1.0) / tau, 1e-9);
}

TEST(DecodePrediction, VllmSpeculativeRisesWithTheAcceptLength) {
  RunRecord r = LoadOnGpu("vllm/v1_decode_eagle3.log");
  ASSERT_TRUE(r.decode.mean_accept_len);
  DecodePrediction base = PredictDecode(r);
  ASSERT_TRUE(base.why_not.empty()) << base.why_not;
  ASSERT_FALSE(base.rows.empty());
  EXPECT_GT(base.rows[0].predicted_tok_s, 0);
  r.decode.mean_accept_len = *r.decode.mean_accept_len + 1.0;
  DecodePrediction more = PredictDecode(r);
  ASSERT_EQ(more.rows.size(), base.rows.size());
  EXPECT_GT(more.rows[0].predicted_tok_s, base.rows[0].predicted_tok_s);
  // Reports without an accept length: kvplan's default, and the text says so.
  r.decode.mean_accept_len.reset();
  DecodePrediction unknown = PredictDecode(r);
  ASSERT_FALSE(unknown.rows.empty()) << unknown.why_not;
  EXPECT_TRUE(Names(unknown, "kvplan's default (none in the reports)"));
  EXPECT_TRUE(Names(base, "accept length 2.36 measured"));  // (2.41+2.35+2.47+2.20)/4
}

TEST(DecodePrediction, GivesAReasonInsteadOfANumber) {
  RunRecord unknown_model = LoadOnGpu("sglang/decode_llama8b_no_spec.log");
  unknown_model.model = "example-org/not-a-model";
  DecodePrediction p = PredictDecode(unknown_model);
  EXPECT_TRUE(p.rows.empty());
  EXPECT_NE(p.why_not.find("example-org/not-a-model"), std::string::npos) << p.why_not;

  DecodePrediction no_gpu = PredictDecode(LoadOnGpu("sglang/decode_llama8b_no_spec.log", ""));
  EXPECT_TRUE(no_gpu.rows.empty());
  EXPECT_NE(no_gpu.why_not.find("--gpu"), std::string::npos) << no_gpu.why_not;

  RunRecord dp = LoadOnGpu("sglang/decode_llama8b_no_spec.log");
  SetSetting(&dp, "dp_size", "2");
  DecodePrediction by_dp = PredictDecode(dp);
  EXPECT_TRUE(by_dp.rows.empty());
  EXPECT_NE(by_dp.why_not.find("DP 2"), std::string::npos) << by_dp.why_not;

  RunRecord ngram = LoadOnGpu("sglang/decode_llama8b_eagle3.log");
  SetSetting(&ngram, "speculative_algorithm", "NGRAM");
  DecodePrediction by_ngram = PredictDecode(ngram);
  EXPECT_TRUE(by_ngram.rows.empty());
  EXPECT_NE(by_ngram.why_not.find("'NGRAM'"), std::string::npos) << by_ngram.why_not;

  RunRecord plain = LoadOnGpu("sglang/decode_llama8b_no_spec.log");
  plain.decode.mean_accept_len = 9.0;  // no speculation in the args: not read
  EXPECT_TRUE(PredictDecode(plain).why_not.empty());

  RunRecord too_long = LoadOnGpu("sglang/decode_llama8b_eagle3.log");
  too_long.decode.mean_accept_len = 9.0;  // 3 steps, 4 draft tokens: at most 5
  DecodePrediction bad = PredictDecode(too_long);
  EXPECT_TRUE(bad.rows.empty());
  EXPECT_NE(bad.why_not.find("accept length 9.00"), std::string::npos) << bad.why_not;
}

TEST(DecodePrediction, ExplainShowsThePredictionAfterTheMeasuredFigures) {
  std::string text = ExplainText(LoadOnGpu("sglang/decode_llama8b_no_spec.log"), "x.log", 1, {});
  size_t measured = text.find("Decode, measured");
  size_t predicted = text.find("  kvplan predicts ");
  ASSERT_NE(measured, std::string::npos) << text;
  ASSERT_NE(predicted, std::string::npos) << text;
  EXPECT_LT(measured, predicted);
  EXPECT_NE(text.find("tok/s at 1 running request (measured 81.6: "), std::string::npos) << text;
  EXPECT_NE(text.find("calibrate with kvplan perf --kernel-us / --memory-efficiency"),
            std::string::npos);

  std::string no_gpu =
      ExplainText(LoadOnGpu("sglang/decode_llama8b_no_spec.log", ""), "x.log", 1, {});
  EXPECT_NE(no_gpu.find("  kvplan predicts nothing: the log names no GPU"), std::string::npos)
      << no_gpu;
}

// explain --json carries the prediction the text shows (it used to drop it).
TEST(DecodePrediction, ExplainJsonCarriesTheSamePredictionAsTheText) {
  RunRecord run = LoadOnGpu("sglang/decode_llama8b_no_spec.log");
  const DecodePrediction direct = PredictDecode(run);
  ASSERT_FALSE(direct.rows.empty());
  nlohmann::json j = nlohmann::json::parse(RenderExplainJson(ExplainRun(run, "x.log", 1, {})));
  const nlohmann::json& p = j.at("decode_prediction");
  EXPECT_EQ(p.at("why_not"), "");
  ASSERT_EQ(p.at("rows").size(), direct.rows.size());
  EXPECT_EQ(p.at("rows")[0].at("running_reqs"), direct.rows[0].running_reqs);
  EXPECT_DOUBLE_EQ(p.at("rows")[0].at("predicted_tok_s").get<double>(),
                   direct.rows[0].predicted_tok_s);
  EXPECT_DOUBLE_EQ(p.at("rows")[0].at("measured_tok_s").get<double>(), 81.57);
  EXPECT_EQ(p.at("inputs").get<std::vector<std::string>>(), direct.inputs);

  nlohmann::json no_gpu = nlohmann::json::parse(RenderExplainJson(
      ExplainRun(LoadOnGpu("sglang/decode_llama8b_no_spec.log", ""), "x", 1, {})));
  EXPECT_EQ(no_gpu.at("decode_prediction").at("rows").size(), 0u);
  EXPECT_NE(no_gpu.at("decode_prediction").at("why_not").get<std::string>().find("names no GPU"),
            std::string::npos);
  // A run with no decode report has no prediction key at all.
  nlohmann::json story = nlohmann::json::parse(
      RenderExplainJson(ExplainRun(LoadOnGpu("sglang/story_baseline_auto_mfs.log"), "x", 1, {})));
  EXPECT_FALSE(story.contains("decode_prediction"));
}

}  // namespace
}  // namespace kvplan
