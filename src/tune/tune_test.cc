#include "tune/tune.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include <gtest/gtest.h>

#include "base/units.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "perf/cuda_graph.h"
#include "perf/reference_hardware.h"
#include "testing/perf_test_util.h"

namespace kvplan {
namespace {

ModelSpec Deepseek() { return LoadModel("deepseek-ai/DeepSeek-V3"); }

ModelSpec Llama8B() { return LoadModel("meta-llama/Llama-3.1-8B-Instruct"); }

TuneRequest SmallRequest() {
  TuneRequest r;
  r.model = Llama8B();
  r.gpu = FindGpu("h100-sxm");
  r.gpus = 2;
  r.topology = Topology::kNvswitch;
  r.context = 4096;
  r.threads = 2;
  return r;
}

// The story (the Makefile's `run`): DeepSeek-V3 at TP 8 on eight RTX PRO 6000,
// SGLang 0.5.6, measured free memory 93.999 GiB before and 21.697 GiB after
// loading. Lowering --cuda-graph-max-bs from 512 to 128 raises SGLang's
// automatic mem_fraction_static and so the KV capacity; at full load the
// extra requests raise decode throughput (story: 82 -> 89.5 tok/s, +9 %).
TEST(TuneStory, LowerCudaGraphMaxBsRaisesKvCapacityAndThroughput) {
  const ModelSpec m = Deepseek();
  SglangArgs a;
  a.tp = 8;
  SglangMeasured measured;
  measured.pre_load_free_bytes = GiBToBytes(93.999);
  measured.post_load_free_bytes = GiBToBytes(21.697);
  SglangPlanOptions o;
  o.explain = false;
  o.fixes = false;
  a.cuda_graph_max_bs = 512;
  const PlanResult big =
      PlanSglang("0.5.6", m, FindGpu("rtx-pro-6000-server"), a, measured, nullptr, o);
  a.cuda_graph_max_bs = 128;
  const PlanResult small =
      PlanSglang("0.5.6", m, FindGpu("rtx-pro-6000-server"), a, measured, nullptr, o);
  ASSERT_TRUE(big.ok) << big.error_message;
  ASSERT_TRUE(small.ok) << small.error_message;
  EXPECT_GT(small.max_total_num_tokens, big.max_total_num_tokens);
  Parallelism par;
  par.tp = 8;
  const ModelGeometry g = MakeGeometry(m);
  EXPECT_GT(CudaGraphMemoryBytes(g, par, 512), CudaGraphMemoryBytes(g, par, 128));
  // Requests of 2048 tokens that fit, and the decode throughput they reach.
  StepContext c = perf_test::Context(&g, "rtx-pro-6000-server", Topology::kPcieDualSocket, 8);
  const auto tok_s = [&](int64_t tokens) {
    const double bs = std::floor(static_cast<double>(tokens) / 2048);
    return bs / ForwardTime(c, perf_test::Decode(bs, 1024)).total_us * 1e6;
  };
  const double gain = tok_s(small.max_total_num_tokens) / tok_s(big.max_total_num_tokens);
  EXPECT_GT(gain, 1.02);
  EXPECT_LT(gain, 1.15);
}

TEST(Tune, RankedIsSortedAndMeetsTheConstraints) {
  TuneRequest r = SmallRequest();
  r.tpot_ms = 30;
  r.ttft_ms = 500;
  const TuneReport rep = RunTune(r);
  ASSERT_FALSE(rep.ranked.empty());
  EXPECT_EQ(rep.evaluated, MakeTuneSpace(r).Size());
  for (size_t i = 0; i < rep.ranked.size(); ++i) {
    EXPECT_LE(rep.ranked[i].tpot_ms, 30);
    EXPECT_LE(rep.ranked[i].ttft_ms, 500);
    EXPECT_EQ(rep.ranked[i].verdict, TuneVerdict::kOk);
    if (i > 0) {
      EXPECT_GE(rep.ranked[i - 1].tokens_per_s, rep.ranked[i].tokens_per_s);
    }
  }
}

TEST(Tune, ParetoFrontIsNonDominated) {
  const TuneReport rep = RunTune(SmallRequest());
  ASSERT_GE(rep.pareto.size(), 2u);
  for (size_t i = 1; i < rep.pareto.size(); ++i) {
    EXPECT_GE(rep.pareto[i].tpot_ms, rep.pareto[i - 1].tpot_ms);
    EXPECT_GT(rep.pareto[i].tokens_per_s, rep.pareto[i - 1].tokens_per_s);
  }
  // Nothing ranked beats the front's best throughput.
  EXPECT_LE(rep.ranked.front().tokens_per_s, rep.pareto.back().tokens_per_s * (1 + 1e-9));
}

TEST(Tune, ConcurrencyDecidesFeasibility) {
  TuneRequest r = SmallRequest();
  r.concurrency = 100000000;
  const TuneReport rep = RunTune(r);
  EXPECT_EQ(rep.feasible, 0);
  ASSERT_EQ(rep.notes.size(), 1u);
  EXPECT_NE(rep.notes[0].find("short of the concurrency"), std::string::npos);
  r.concurrency = 16;
  for (const TuneResult& x : RunTune(r).ranked) EXPECT_EQ(x.batch, 16);
}

// The printed command is one SGLang itself accepts and it means what was ranked.
TEST(Tune, LaunchCommandParsesBackToTheCandidate) {
  const TuneRequest r = SmallRequest();
  const TuneSpace s = MakeTuneSpace(r);
  for (const TuneResult& x : RunTune(r).ranked) {
    std::istringstream words(LaunchCommand(r, s, x));
    std::vector<std::string> argv;
    for (std::string w; words >> w;) argv.push_back(w);
    ASSERT_GE(argv.size(), 3u);
    argv.erase(argv.begin(), argv.begin() + 3);  // python -m sglang.launch_server
    const SglangArgs a = ParseSglangArgs(argv);
    EXPECT_EQ(a.tp, x.c.tp);
    EXPECT_EQ(a.cuda_graph_max_bs.value_or(-1), x.c.cuda_graph_max_bs);
    EXPECT_EQ(a.chunked_prefill_size.value_or(-1), x.c.chunked_prefill);
    EXPECT_EQ(a.kv_cache_dtype, x.c.kv_fp8 ? "fp8_e4m3" : "auto");
    if (x.c.mfs > 0) {
      EXPECT_EQ(a.mem_fraction_static.value_or(-1), x.c.mfs);
    }
  }
}

// Each release's own parser (data/flags/sglang/, read at the release tags) takes the command
// without a note: no flag it lacks, none it warns about (from v0.5.14 --cuda-graph-max-bs is
// --cuda-graph-max-bs-decode's deprecated alias, server_args.py add_cli_args), no abbreviation.
TEST(Tune, LaunchCommandUsesEachReleasesOwnFlags) {
  TuneRequest r = SmallRequest();
  const TuneSpace s = MakeTuneSpace(r);
  const std::vector<TuneResult> ranked = RunTune(r).ranked;
  ASSERT_FALSE(ranked.empty());
  for (const auto& [release, decode] : {std::pair<const char*, bool>{"0.5.6", false},
                                        {"0.5.13.post1", false},
                                        {"0.5.14", true},
                                        {"0.5.18", true}}) {
    r.sglang_version = release;
    std::istringstream words(LaunchCommand(r, s, ranked.front()));
    std::vector<std::string> argv;
    for (std::string w; words >> w;) argv.push_back(w);
    argv.erase(argv.begin(), argv.begin() + 3);  // python -m sglang.launch_server
    EXPECT_EQ(std::count(argv.begin(), argv.end(), "--cuda-graph-max-bs-decode"), decode ? 1 : 0);
    EXPECT_EQ(std::count(argv.begin(), argv.end(), "--tp-size"), 1) << release;
    const SglangArgs a = ParseSglangArgs(argv, release);
    EXPECT_TRUE(a.flag_notes.empty()) << release << ": " << a.flag_notes.front();
    EXPECT_TRUE(a.unknown_flags.empty()) << release;
    EXPECT_EQ(a.cuda_graph_max_bs.value_or(-1), ranked.front().c.cuda_graph_max_bs) << release;
  }
}

TEST(Tune, SpaceCoversLayoutsAndSpeculation) {
  TuneRequest r = SmallRequest();
  r.model = Deepseek();
  r.gpus = 8;
  const TuneSpace s = MakeTuneSpace(r);
  const auto has = [&](auto pred) { return std::any_of(s.layouts.begin(), s.layouts.end(), pred); };
  EXPECT_TRUE(has([](const TuneCandidate& c) { return c.tp == 8 && c.dp_attention; }));
  EXPECT_TRUE(has([](const TuneCandidate& c) { return c.tp == 8 && c.ep == 8; }));
  EXPECT_TRUE(has([](const TuneCandidate& c) { return c.tp == 4 && c.replicas == 2; }));
  EXPECT_TRUE(has([](const TuneCandidate& c) { return c.pp == 2; }));
  // DeepSeek-V3 ships an MTP layer: NEXTN settings are searched.
  EXPECT_GT(s.specs.size(), 1u);
  EXPECT_EQ(s.specs[1].algorithm, SpecAlgorithm::kNextn);
}

TEST(Tune, BadInput) {
  TuneRequest r = SmallRequest();
  r.gpus = 0;
  EXPECT_THROW(RunTune(r), InputError);
  r = SmallRequest();
  r.context = 0;
  EXPECT_THROW(RunTune(r), InputError);
}

}  // namespace
}  // namespace kvplan
