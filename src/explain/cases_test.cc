// Every public case in ../shared/cases whose log excerpt is given must parse
// into the figures the case lists under "logged" (one test per case id).
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "explain/explain.h"
#include "explain/log_file.h"
#include "logs/log_scanner.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

const nlohmann::json& Case(const std::string& id) {
  static const std::map<std::string, nlohmann::json> cases = [] {
    std::map<std::string, nlohmann::json> out;
    for (const char* file : {"cases/sglang.jsonl", "cases/vllm.jsonl"}) {
      std::ifstream in(kvplan::testing::RealData(file));
      std::string line;
      while (std::getline(in, line)) {
        if (line.empty()) continue;
        nlohmann::json j = nlohmann::json::parse(line);
        out[j.at("id")] = j;
      }
    }
    return out;
  }();
  auto it = cases.find(id);
  if (it == cases.end()) throw std::runtime_error("no case " + id + " under tests/data/real/cases");
  return it->second;
}

std::vector<RunRecord> Parse(const std::string& id) {
  return LoadLogText(Case(id).at("log_excerpt").get<std::string>()).runs;
}

struct StageField {
  std::string_view stage;
  bool avail;  // else usage
};

// The case keys that are per-rank memory readings, and where the record keeps them.
const std::map<std::string, StageField>& StageKeys() {
  static const std::map<std::string, StageField> keys = {
      {"init_dist_mem_usage_gib", {kStageInitDistributed, false}},
      {"post_load_free_gib", {kStageLoadWeightEnd, true}},
      {"weights_usage_gib", {kStageLoadWeightEnd, false}},
      {"memory_pool_end_avail_gib", {kStageMemoryPoolEnd, true}},
      {"capture_begin_avail_gib", {kStageGraphBegin, true}},
      {"capture_end_avail_gib", {kStageGraphEnd, true}},
      {"cuda_graph_mem_usage_gib", {kStageGraphEnd, false}},
  };
  return keys;
}

bool RankMatches(const std::string& label, const std::string& want) {
  std::istringstream words(label);
  std::string w;
  while (words >> w) {
    if (w == want) return true;
  }
  return label == want;
}

std::optional<double> RankValue(const RunRecord& r, StageField f, const std::string& rank) {
  for (const MemoryPoint& p : r.timeline) {
    if (p.stage == f.stage && RankMatches(p.rank, rank)) return f.avail ? p.avail_gib : p.usage_gib;
  }
  return std::nullopt;
}

std::optional<double> ScalarValue(const RunRecord& r, const std::string& key) {
  static const std::map<std::string, std::string> aliases = {
      {"capture_time_s", "cuda_graph_capture_time_s"}};
  auto alias = aliases.find(key);
  if (auto v = r.Figure(alias == aliases.end() ? key : alias->second)) return v;
  if (auto it = StageKeys().find(key); it != StageKeys().end()) {
    return it->second.avail ? r.MinAvail(it->second.stage) : r.MinUsage(it->second.stage);
  }
  if (key == "nvidia_smi_total_mib" && r.gpu_capacity_mib > 0) {
    return static_cast<double>(r.gpu_capacity_mib);
  }
  return r.SettingNumber(key);
}

// Checks every "logged" figure of the case against `run`.
void ExpectLogged(const nlohmann::json& logged, const RunRecord& run) {
  for (const auto& [key, want] : logged.items()) {
    SCOPED_TRACE(key);
    if (key == "error_message") {
      std::string w = want;
      ASSERT_FALSE(run.error.empty());
      // The excerpt may be cut before the end of the message, or the case may quote less.
      bool prefix = run.error.rfind(w, 0) == 0 || w.rfind(run.error, 0) == 0;
      EXPECT_TRUE(prefix) << "logged: " << w << "\nparsed: " << run.error;
      EXPECT_EQ(run.outcome, "failed");
    } else if (want.is_object()) {
      auto stage = StageKeys().find(key);
      ASSERT_NE(stage, StageKeys().end()) << "unmapped per-rank key";
      for (const auto& [rank, v] : want.items()) {
        std::optional<double> got = RankValue(run, stage->second, rank);
        ASSERT_TRUE(got) << rank;
        EXPECT_DOUBLE_EQ(*got, v.get<double>()) << rank;
      }
    } else if (want.is_array()) {
      std::vector<int64_t> w = want.get<std::vector<int64_t>>();
      if (!run.cuda_graph_bs.empty()) {
        EXPECT_EQ(run.cuda_graph_bs, w);
      } else {
        const LoggedSetting* s = run.FindSetting(key);
        ASSERT_NE(s, nullptr);
        std::string text = "[";
        for (size_t i = 0; i < w.size(); ++i) text += (i ? ", " : "") + std::to_string(w[i]);
        EXPECT_EQ(s->value, text + "]");
      }
    } else {
      std::optional<double> got = ScalarValue(run, key);
      ASSERT_TRUE(got) << "not parsed";
      EXPECT_DOUBLE_EQ(*got, want.get<double>());
    }
  }
}

void ExpectCase(const std::string& id, size_t runs = 1) {
  std::vector<RunRecord> parsed = Parse(id);
  ASSERT_EQ(parsed.size(), runs);
  ExpectLogged(Case(id).at("logged"), parsed[0]);
  EXPECT_EQ(parsed[0].engine, Case(id).at("engine").get<std::string>());
}

TEST(PublicCases, SglangB200Qwen3_32bTp4_pr22537) {
  ExpectCase("sglang-b200-qwen3-32b-tp4-pr22537");
  RunRecord r = Parse("sglang-b200-qwen3-32b-tp4-pr22537")[0];
  EXPECT_EQ(r.RankCount(kStageKvAllocated), 4);
  EXPECT_NE(r.era.find("2026"), std::string::npos);  // "elapsed=" in the init/load lines
}

TEST(PublicCases, SglangQwen3_30bDp4DpAttention_pr17392) {
  ExpectCase("sglang-qwen3-30b-a3b-dp4-dpattn-pr17392");
}

TEST(PublicCases, SglangB200GraphMemory_pr11830) {
  ExpectCase("sglang-b200-28layer-gqa-graphmem-pr11830");
}

TEST(PublicCases, SglangGemma3WindowsMfs065_pr4840) {
  ExpectCase("sglang-gemma3-4b-windows-mfs065-pr4840");
  // v0.4.4 prints avail mem before mem usage in the graph-end line.
  EXPECT_NE(Parse("sglang-gemma3-4b-windows-mfs065-pr4840")[0].era.find("v0.4.6 or older"),
            std::string::npos);
}

TEST(PublicCases, SglangDsv32NsaWithIndexer_pr11309) {
  ExpectCase("sglang-b200-dsv32-nsa-dpattn-pr11309-with-indexer");
  RunRecord r = Parse("sglang-b200-dsv32-nsa-dpattn-pr11309-with-indexer")[0];
  EXPECT_NE(r.launch_command.find("--enable-dp-attention"), std::string::npos);
}

TEST(PublicCases, SglangDsv32NsaMain_pr11309) {
  // "kv_size_including_indexer_gib_stated" is prose in the PR, not a log line.
  nlohmann::json logged = Case("sglang-b200-dsv32-nsa-dpattn-pr11309-main").at("logged");
  logged.erase("kv_size_including_indexer_gib_stated");
  std::vector<RunRecord> runs = Parse("sglang-b200-dsv32-nsa-dpattn-pr11309-main");
  ASSERT_EQ(runs.size(), 1u);
  ExpectLogged(logged, runs[0]);
}

TEST(PublicCases, SglangL40sDefaultMfs_pr13023) {
  ExpectCase("sglang-l40s-llama31-8b-default-mfs-pr13023");
  RunRecord r = Parse("sglang-l40s-llama31-8b-default-mfs-pr13023")[0];
  EXPECT_EQ(r.gpu_name, "NVIDIA L40S");
  EXPECT_FALSE(r.settings_complete);  // the case trimmed the repr with [...]
  EXPECT_EQ(r.FindSetting("enable_piecewise_cuda_graph")->value, "False");
  // No launch command: provenance from SGLang's default rule for 46068 MiB at TP 1
  // (v0.5.3, #10975): reserved = 512 + 4096*1.5 + 32*2 + 1/8*1024 = 6848 MiB;
  // round((46068 - 6848) / 46068, 3) = 0.851, the printed value -> auto.
  const LoggedSetting* mfs = r.FindSetting("mem_fraction_static");
  EXPECT_EQ(mfs->provenance, "auto");
  EXPECT_NE(mfs->rule.find("matches the default rule"), std::string::npos) << mfs->rule;
}

TEST(PublicCases, SglangL40sChangedFractionIsMarkedUser_pr13023) {
  std::string excerpt =
      Case("sglang-l40s-llama31-8b-default-mfs-pr13023").at("log_excerpt").get<std::string>();
  excerpt.replace(excerpt.find("mem_fraction_static=0.851"), 25, "mem_fraction_static=0.700");
  std::vector<RunRecord> runs = LoadLogText(excerpt).runs;
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].FindSetting("mem_fraction_static")->provenance, "user");
}

TEST(PublicCases, SglangMusaQwen3_06b_pr17246) {
  ExpectCase("sglang-musa-qwen3-0.6b-pr17246");
  EXPECT_EQ(Parse("sglang-musa-qwen3-0.6b-pr17246")[0].outcome, "ok");
}

TEST(PublicCases, Sglang48GbQwen3_14b_xinference3481) {
  ExpectCase("sglang-48gb-qwen3-14b-xinference3481");
}

TEST(PublicCases, VllmV0Rtx3090Len20000_issue10517) {
  ExpectCase("vllm-v0-rtx3090-llama31-8b-len20000-issue10517");
}

TEST(PublicCases, VllmV0Rtx3090Len29000_issue10517) {
  ExpectCase("vllm-v0-rtx3090-llama31-8b-len29000-issue10517");
}

TEST(PublicCases, VllmV0H100Llama32Vision_pr12126) {
  ExpectCase("vllm-v0-h100-llama32-11b-vision-pr12126");
}

TEST(PublicCases, VllmV1Llama70bW8a8_pr12569) {
  ExpectCase("vllm-v1-llama31-70b-w8a8-maxlen2048-pr12569");
}

TEST(PublicCases, VllmV1Pp2Qwen3Coder_issue34076) {
  ExpectCase("vllm-v1-pp2-5070ti-5090d-qwen3-coder-30b-issue34076");
}

TEST(PublicCases, VllmV1H100GptOssFail_issue27508) {
  ExpectCase("vllm-v1-h100-gpt-oss-120b-fail-issue27508");
}

TEST(PublicCases, VllmV1H20Qwen3Coder480bTwoRuns_recipes12) {
  // The excerpt holds two launches back to back (util 0.90, then 0.95).
  std::vector<RunRecord> runs = Parse("vllm-v1-h20-qwen3-coder-480b-fp8-dp8-recipes12");
  ASSERT_EQ(runs.size(), 2u);
  const nlohmann::json& logged =
      Case("vllm-v1-h20-qwen3-coder-480b-fp8-dp8-recipes12").at("logged");
  ExpectLogged(logged.at("run_util_0.90"), runs[0]);
  ExpectLogged(logged.at("run_util_0.95"), runs[1]);
}

TEST(PublicCases, VllmV1DeepseekV2LiteOffload_issue15871) {
  ExpectCase("vllm-v1-deepseek-v2-lite-chat-offload-fail-issue15871");
}

TEST(PublicCases, VllmV0Rtx3090Qwen3_30bW4a16_issue17327) {
  ExpectCase("vllm-v0-rtx3090-qwen3-30b-a3b-w4a16-issue17327");
}

// The excerpt re-planned (explain), against the KV tokens the log itself prints.
SglangExplain ReplanCase(const std::string& id) {
  std::vector<RunRecord> runs = Parse(id);
  EXPECT_EQ(runs.size(), 1u);
  ExplainResult e = ExplainRun(runs.at(0), id, 1, {});
  EXPECT_TRUE(e.sglang.has_value());
  return e.sglang.value_or(SglangExplain{});
}

double RelativeMiss(const SglangExplain& s, const std::string& id) {
  double logged = Case(id).at("logged").at("kv_tokens").get<double>();
  EXPECT_TRUE(s.verdict.tokens.has_value()) << s.unavailable;
  return std::fabs(static_cast<double>(s.verdict.tokens.value_or(0)) - logged) / logged;
}

const ReplanInput& Input(const SglangExplain& s, const std::string& name) {
  for (const ReplanInput& in : s.provenance) {
    if (in.name == name) return in;
  }
  throw std::runtime_error("no input " + name);
}

TEST(PublicCasesReplan, B200Qwen3_32bExcerptFindsThe2026DefaultRule_pr22537) {
  // No server_args fraction, no Load weight begin: pre = 160.78 + 15.50 (TP0's load line),
  // and the KV pool implies 0.8518, which SGLang's 2026 rule gives (0.852) for a
  // 183359 MiB card (B200) at TP 4, the only catalog capacity ~177.6 GiB fits under
  // with under 15 % to spare.
  const std::string id = "sglang-b200-qwen3-32b-tp4-pr22537";
  SglangExplain s = ReplanCase(id);
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_DOUBLE_EQ(s.pre_gib, 160.78 + 15.50);
  EXPECT_EQ(Input(s, "pre_load_free_gib").provenance, "derived");
  const ReplanInput& mfs = Input(s, "mem_fraction_static");
  EXPECT_EQ(mfs.provenance, "assumed");
  EXPECT_NEAR(mfs.value, 0.852, 1e-9);
  EXPECT_NE(mfs.how.find("183359 MiB"), std::string::npos) << mfs.how;
  EXPECT_LT(RelativeMiss(s, id), 0.005);
  EXPECT_FALSE(s.check.circular);
  // The planner gets that card (its compute capability), said to be inferred.
  bool b200 = false;
  for (const std::string& in : s.inputs) b200 |= in.rfind("GPU NVIDIA B200 inferred", 0) == 0;
  EXPECT_TRUE(b200);
}

TEST(PublicCasesReplan, MusaQwen3_06bExcerptFindsAnA100SizedDefaultRule_pr17246) {
  // pre = 77.69 + 1.57; the pool implies 0.836, the v0.5.3 rule at 81920 MiB.
  const std::string id = "sglang-musa-qwen3-0.6b-pr17246";
  SglangExplain s = ReplanCase(id);
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_NEAR(Input(s, "mem_fraction_static").value, 0.836, 1e-9);
  EXPECT_EQ(Input(s, "mem_fraction_static").provenance, "assumed");
  EXPECT_LT(RelativeMiss(s, id), 0.005);
  EXPECT_EQ(s.check.kind, SglangLogCheck::kMatches);
}

TEST(PublicCasesReplan, Qwen3_14bXinferenceExcerptMatchesThe088Rule_xinference3481) {
  const std::string id = "sglang-48gb-qwen3-14b-xinference3481";
  SglangExplain s = ReplanCase(id);
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_NEAR(Input(s, "mem_fraction_static").value, 0.88, 1e-9);
  EXPECT_LT(RelativeMiss(s, id), 0.005);
  EXPECT_EQ(s.check.kind, SglangLogCheck::kMatches);
}

TEST(PublicCasesReplan, Dp4ExcerptUsesTheImpliedFractionAndSaysTheCheckIsCircular_pr17392) {
  // 0.80 is no default rule (the case says so too): the re-plan can only confirm
  // the arithmetic on the fraction the same KV line implies.
  const std::string id = "sglang-qwen3-30b-a3b-dp4-dpattn-pr17392";
  SglangExplain s = ReplanCase(id);
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_DOUBLE_EQ(s.post_gib, 121.90);  // the min over the four ranks' load lines
  EXPECT_NEAR(Input(s, "mem_fraction_static").value, 0.80, 1e-9);
  EXPECT_EQ(Input(s, "mem_fraction_static").provenance, "derived");
  EXPECT_TRUE(s.check.circular);
  EXPECT_LT(RelativeMiss(s, id), 0.005);
}

TEST(PublicCasesReplan, ExcerptsWithoutTheLoadLineNameTheMissingFigureAndItsFlag) {
  for (const char* id :
       {"sglang-b200-28layer-gqa-graphmem-pr11830", "sglang-gemma3-4b-windows-mfs065-pr4840",
        "sglang-b200-dsv32-nsa-dpattn-pr11309-main",
        "sglang-l40s-llama31-8b-default-mfs-pr13023"}) {
    SCOPED_TRACE(id);
    SglangExplain s = ReplanCase(id);
    EXPECT_NE(s.unavailable.find("no post-load free memory"), std::string::npos) << s.unavailable;
    EXPECT_NE(s.unavailable.find("--post-load-free-gib"), std::string::npos) << s.unavailable;
    EXPECT_EQ(s.unavailable.find('\n'), std::string::npos);
    const nlohmann::json& logged = Case(id).at("logged");
    if (logged.contains("kv_tokens")) {
      EXPECT_EQ(s.logged_tokens, logged.at("kv_tokens").get<int64_t>());  // shown all the same
    }
  }
}

// Every case with an excerpt has a test above.
TEST(PublicCases, EveryCaseWithAnExcerptIsCovered) {
  int with_excerpt = 0;
  for (const char* file : {"cases/sglang.jsonl", "cases/vllm.jsonl"}) {
    std::ifstream in(kvplan::testing::RealData(file));
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && !nlohmann::json::parse(line).at("log_excerpt").is_null()) ++with_excerpt;
    }
  }
  EXPECT_EQ(with_excerpt, 18);
}

}  // namespace
}  // namespace kvplan
