#include "tune/sizing.h"

#include <sstream>

#include <gtest/gtest.h>

#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "perf/topology.h"

namespace kvplan {
namespace {

// Llama-3.1-8B on H100s, 1024 in / 256 out, 300 requests at `rate` req/s,
// p90 TTFT <= 500 ms and TPOT <= 15 ms (the README's example, smaller).
SizingRequest Request(double rate, int gpus) {
  SizingRequest r;
  r.tune.model = LoadModel("meta-llama/Llama-3.1-8B-Instruct");
  r.tune.gpu = FindGpu("h100-sxm");
  r.tune.gpus = gpus;
  r.tune.context = 1024 + 256;
  r.tune.threads = 2;
  r.model_arg = "meta-llama/Llama-3.1-8B-Instruct";
  r.gpu_arg = "h100-sxm";
  r.load.rate = rate;
  r.load.num_requests = 300;
  r.load.input = {"fixed", 1024, 0};
  r.load.output = {"fixed", 256, 0};
  r.ttft_p90_ms = 500;
  r.tpot_p90_ms = 15;
  return r;
}

TEST(SizingTest, StopsAtTheFirstGpuCountWhereALaunchMeetsTheSla) {
  const SizingReport rep = RunSizing(Request(60, 4));
  ASSERT_GT(rep.gpus, 1);  // one H100 does not carry 60 req/s within 15 ms TPOT
  ASSERT_EQ(rep.counts.size(), static_cast<size_t>(rep.gpus));
  for (const SizingCount& c : rep.counts) {
    EXPECT_EQ(c.met, c.gpus == rep.gpus ? static_cast<int64_t>(rep.winners.size()) : 0);
    EXPECT_GT(c.simulated, 0);
    EXPECT_LE(c.simulated, c.proposed);
  }
  ASSERT_FALSE(rep.winners.empty());
  for (const SizedLaunch& w : rep.winners) {
    EXPECT_TRUE(w.figures.meets);
    EXPECT_LE(w.figures.ttft_p90_ms, 500);
    EXPECT_LE(w.figures.tpot_p90_ms, 15);
    EXPECT_EQ(w.candidate.c.tp * w.candidate.c.replicas, rep.gpus);
    EXPECT_NE(w.command.find("--tp-size "), std::string::npos);
  }
}

TEST(SizingTest, ALightLoadFitsOneGpu) {
  const SizingReport rep = RunSizing(Request(5, 4));
  EXPECT_EQ(rep.gpus, 1);
  EXPECT_EQ(rep.counts.size(), 1u);
}

// The winner's figures are the simulator's for its launch (no second copy):
// the same launch through kvplan::Simulate gives the same p90s.
TEST(SizingTest, WinnerFiguresAreTheSimulatorsForItsLaunch) {
  const SizingRequest req = Request(5, 1);
  const SizingReport rep = RunSizing(req);
  ASSERT_FALSE(rep.winners.empty());
  const TuneCandidate& c = rep.winners.front().candidate.c;
  SimulateQuery q;
  q.launch.engine = "sglang";
  q.launch.model = req.model_arg;
  q.launch.gpu = req.gpu_arg;
  q.launch.args = {"--tp-size",
                   "1",
                   "--cuda-graph-max-bs",
                   std::to_string(c.cuda_graph_max_bs),
                   "--chunked-prefill-size",
                   std::to_string(c.chunked_prefill)};
  if (c.mfs > 0) {
    q.launch.args.insert(q.launch.args.end(), {"--mem-fraction-static", std::to_string(c.mfs)});
  }
  if (c.kv_fp8) q.launch.args.insert(q.launch.args.end(), {"--kv-cache-dtype", "fp8_e4m3"});
  q.workload = req.load;
  const SimulateResult r = Simulate(q);
  EXPECT_DOUBLE_EQ(rep.winners.front().figures.ttft_p90_ms, r.ttft_ms.p90);
  EXPECT_DOUBLE_EQ(rep.winners.front().figures.tpot_p90_ms, r.tpot_ms.p90);
  EXPECT_EQ(rep.winners.front().figures.kv_tokens, r.kv_tokens);
}

// The memory table: the winner's own value of each setting and 1-3 others;
// a smaller mem_fraction_static gives a smaller KV cache.
TEST(SizingTest, MemorySettingsTableChangesOneSettingAtATime) {
  const SizingReport rep = RunSizing(Request(5, 1));
  ASSERT_FALSE(rep.variants.empty());
  int own = 0;
  int64_t own_kv = 0;
  for (const SizingVariant& v : rep.variants) {
    if (v.is_winner) {
      ++own;
      own_kv = v.figures.kv_tokens;
    }
    if (v.setting == "mem_fraction_static" && !v.is_winner && v.figures.starts &&
        std::stod(v.value) < rep.winners.front().candidate.mfs) {
      EXPECT_LT(v.figures.kv_tokens, own_kv);
    }
  }
  EXPECT_EQ(own, 3);  // cuda_graph_max_bs, mem_fraction_static, kv_cache_dtype
}

TEST(SizingTest, NeedsAnSlaAndALoad) {
  SizingRequest r = Request(5, 1);
  r.ttft_p90_ms.reset();
  r.tpot_p90_ms.reset();
  EXPECT_THROW(RunSizing(r), InputError);
  r = Request(5, 1);
  r.load.rate.reset();
  EXPECT_THROW(RunSizing(r), InputError);
}

// Where speculation stops paying, on the winner's launch: at concurrency 1
// the EAGLE-3 launch gives more output tokens per second (perf's batch-1
// speedup for this draft is above 1), at the reported concurrency no more,
// and below it more at every concurrency tried.
TEST(SizingTest, ReportsTheConcurrencyWhereSpeculationStopsPaying) {
  SizingRequest req = Request(5, 1);
  req.tune.draft = LoadModel("sgl-project/SpecForge-llama3-8B-eagle3");
  req.tune.draft_path = "sgl-project/SpecForge-llama3-8B-eagle3";
  const SizingReport rep = RunSizing(req);
  ASSERT_FALSE(rep.winners.empty());
  const SpecBreakEven& b = rep.spec;
  ASSERT_TRUE(b.why_not.empty()) << b.why_not;
  EXPECT_NE(b.speculative.find("EAGLE3"), std::string::npos);
  ASSERT_GT(b.stops_paying_at, 1);
  ASSERT_GE(b.points.size(), 2u);
  EXPECT_EQ(b.points.back().concurrency, b.stops_paying_at);
  EXPECT_LE(b.points.back().spec_tok_s, b.points.back().plain_tok_s);
  for (size_t i = 0; i + 1 < b.points.size(); ++i) {
    EXPECT_GT(b.points[i].spec_tok_s, b.points[i].plain_tok_s) << b.points[i].concurrency;
  }
}

// A MoE model whose weights need two L40S GPUs (Qwen3-30B-A3B in BF16, 61 GB): at two GPUs
// the search proposes TP 2 alone, with --ep-size 2, with DP attention over both ranks, and
// with both; a loose SLA lets every launch that starts meet it.
SizingRequest MoeRequest() {
  SizingRequest r = Request(4, 2);
  r.tune.model = LoadModel("Qwen/Qwen3-30B-A3B");
  r.tune.gpu = FindGpu("l40s");
  r.tune.topology = DefaultTopology(r.tune.gpu);  // PCIe, as the simulator takes it
  r.tune.sglang_version = "0.5.18";               // a release with its own parser table
  r.tune.context = 512 + 128;
  r.model_arg = "Qwen/Qwen3-30B-A3B";
  r.gpu_arg = "l40s";
  r.load.num_requests = 40;
  r.load.input.mean = 512;
  r.load.output.mean = 128;
  r.ttft_p90_ms = 60000;
  r.tpot_p90_ms = 1000;
  return r;
}

// The printed command served directly by kvplan::Simulate at the searched release: its words
// after `python -m sglang.launch_server` (which that release's parser takes without a note),
// --model-path as the query's model.
SimulateResult SimulatePrinted(const SizingRequest& req, const std::string& command) {
  std::istringstream words(command);
  std::vector<std::string> argv;
  for (std::string w; words >> w;) argv.push_back(w);
  if (argv.size() < 5) {
    ADD_FAILURE() << "too short a command: " << command;
    return {};
  }
  EXPECT_EQ(argv[2], "sglang.launch_server");
  EXPECT_EQ(argv[3], "--model-path");
  const SglangArgs parsed =
      ParseSglangArgs({argv.begin() + 3, argv.end()}, req.tune.sglang_version);
  EXPECT_TRUE(parsed.unknown_flags.empty()) << command;
  for (const std::string& note : parsed.flag_notes) ADD_FAILURE() << note << ": " << command;
  SimulateQuery q;
  q.launch.engine = "sglang";
  q.launch.version = req.tune.sglang_version;
  q.launch.model = argv[4];
  q.launch.gpu = req.gpu_arg;
  q.launch.args.assign(argv.begin() + 5, argv.end());
  q.workload = req.load;
  return Simulate(q);
}

// DP attention and expert parallelism are proposed, simulated, and what sizing reports for
// such a launch is what the simulator gives for the command it prints: the same numbers
// through both paths (the DP attention launch as SGLang's --dp-size/--enable-dp-attention
// launch, one scheduler per rank).
TEST(SizingTest, DpAttentionAndEpLaunchesAreSimulatedAsTheirCommandsLaunch) {
  const SizingRequest req = MoeRequest();
  const SizingReport rep = RunSizing(req);
  ASSERT_EQ(rep.gpus, 2);
  const SizedLaunch* dp = nullptr;
  const SizedLaunch* ep = nullptr;
  for (const SizedLaunch& w : rep.winners) {
    if (w.candidate.c.dp_attention && !dp) dp = &w;
    if (!w.candidate.c.dp_attention && w.candidate.c.ep == 2 && !ep) ep = &w;
  }
  ASSERT_NE(dp, nullptr);
  ASSERT_NE(ep, nullptr);
  EXPECT_NE(dp->command.find("--enable-dp-attention"), std::string::npos);
  EXPECT_NE(ep->command.find("--ep-size 2"), std::string::npos);
  for (const SizedLaunch* w : {dp, ep}) {
    SCOPED_TRACE(w->command);
    const SimulateResult r = SimulatePrinted(req, w->command);
    EXPECT_EQ(r.dp_ranks, w->candidate.c.dp_attention ? 2 : 1);
    EXPECT_DOUBLE_EQ(w->figures.ttft_p90_ms, r.ttft_ms.p90);
    EXPECT_DOUBLE_EQ(w->figures.tpot_p90_ms, r.tpot_ms.p90);
    EXPECT_DOUBLE_EQ(w->figures.output_tok_s, r.output_tok_s);
    EXPECT_EQ(w->figures.kv_tokens, r.kv_tokens);
    EXPECT_EQ(w->figures.completed, r.completed);
  }
  ASSERT_FALSE(rep.notes.empty());
  EXPECT_EQ(rep.notes[0].find("DP attention and expert parallelism are not"), std::string::npos);
  EXPECT_NE(rep.notes[0].find("DP attention and expert parallelism (each simulated"),
            std::string::npos);
}

}  // namespace
}  // namespace kvplan
