// Hostile inputs to every reader (tests/data/synthetic/hostile, plus FIFOs, devices and
// large sparse files made at run time): each ends with exit 2 and one short,
// printable error line, or a normal result; never a crash or a hang. Each run
// is bounded by timeout(1), so a hang fails as status 124.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "testing/cli_test_util.h"
#include "testing/scratch_dir.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {
namespace fs = std::filesystem;

using CliRun = testing::ShellRun;

// stderr joined to stdout, nothing on stdin, at most 30 s.
CliRun Kvplan(const std::string& args) {
  return testing::RunKvplanShell(args + " </dev/null", /*merge_stderr=*/true, /*timeout_s=*/30);
}

std::string Hostile(const std::string& name) {
  return kvplan::testing::SyntheticData("hostile/" + name);
}

// Exit 2 with one line of at most a few hundred printable bytes holding `want`.
void ExpectOneLineError(const std::string& args, const std::string& want) {
  SCOPED_TRACE(args);
  const CliRun r = Kvplan(args);
  EXPECT_EQ(r.status, 2) << r.out.substr(0, 2000);
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out.substr(0, 2000);
  EXPECT_LT(r.out.size(), 1200u);
  for (char c : r.out.substr(0, r.out.size() - 1)) {
    EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << r.out;
  }
  EXPECT_NE(r.out.find(want), std::string::npos) << r.out;
}

// A file of `bytes` bytes that takes no disk space (and no time) to make.
void MakeSparse(const std::string& path, int64_t bytes, const std::string& head = "{") {
  std::ofstream(path, std::ios::binary) << head;
  fs::resize_file(path, static_cast<uintmax_t>(bytes));
}

const std::string kPlan = "plan --gpu h100 --model ";

TEST(HostileInputs, SpecialFilesAreRefusedNotWaitedOn) {
  testing::ScratchDir t;
  const std::string fifo = t.File("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ExpectOneLineError(kPlan + fifo, "is a FIFO, not a regular file");
  ExpectOneLineError(kPlan + "/dev/zero", "is a character device");
  ExpectOneLineError("explain " + fifo, "log " + fifo + " is a FIFO");
  ExpectOneLineError("explain /dev/zero", "is a character device");
  ExpectOneLineError("explain /dev/urandom", "is a character device");
  ExpectOneLineError("diff /dev/zero /dev/zero", "is a character device");
  const std::string trt = "plan --engine trtllm --gpu h100 --model Qwen/Qwen3-32B ";
  ExpectOneLineError(trt + "--extra_llm_api_options " + fifo, "is a FIFO");
  ExpectOneLineError(trt + "--extra_llm_api_options /dev/zero", "is a character device");
  ExpectOneLineError(kPlan + "/dev/urandom", "is a character device");
  const std::string sim = "simulate --gpu h100 --model Qwen/Qwen3-8B --trace ";
  ExpectOneLineError(sim + fifo, "trace " + fifo + " is a FIFO");
  ExpectOneLineError(sim + "/dev/urandom", "is a character device");
}

// --gpu FILE.json was read with std::ifstream: a FIFO named *.json waited
// forever, and a link to /dev/zero read until memory ran out.
TEST(HostileInputs, GpuFilesAreBoundedLikeEveryOtherInput) {
  testing::ScratchDir t;
  const std::string fifo = t.File("fifo.json");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const std::string model = " --model Qwen/Qwen3-8B";
  ExpectOneLineError("plan --gpu " + fifo + model, "GPU file " + fifo + " is a FIFO");
  fs::create_symlink("/dev/zero", t.File("zero.json"));
  ExpectOneLineError("plan --gpu " + t.File("zero.json") + model, "is a character device");
  MakeSparse(t.File("big.json"), int64_t{2} << 30);
  ExpectOneLineError("plan --gpu " + t.File("big.json") + model, "over the 64.0 KiB limit");
}

TEST(HostileInputs, OversizedFilesAreRefusedBeforeReading) {
  testing::ScratchDir t;
  MakeSparse(t.File("config.json"), 200 << 20);
  ExpectOneLineError(kPlan + (t.File("config.json")), "over the 1.0 MiB limit for a model config");
  fs::create_directories(t.File("m"));
  std::ofstream(t.File("m/config.json")) << R"({"architectures":["LlamaForCausalLM"],
    "hidden_size":64,"intermediate_size":128,"num_hidden_layers":2,"num_attention_heads":4,
    "num_key_value_heads":2,"vocab_size":1000,"max_position_embeddings":4096})";
  MakeSparse(t.File("m/model.safetensors.index.json"), 200 << 20);
  ExpectOneLineError(kPlan + (t.File("m")), "over the 64.0 MiB limit for a safetensors index");
  fs::remove(t.File("m/model.safetensors.index.json"));
  // A header length past the format's 100 MB cap, and one past the file's end.
  MakeSparse(t.File("m/a.safetensors"), 1 << 20,
             std::string("\x00\x00\x00\x10\x00\x00\x00\x00", 8));
  ExpectOneLineError(kPlan + (t.File("m")), "not a safetensors file");
  MakeSparse(t.File("m/a.safetensors"), 1 << 20,
             std::string("\x00\x00\xa0\x05\x00\x00\x00\x00", 8));
  ExpectOneLineError(kPlan + (t.File("m")), "truncated safetensors header");
  fs::remove(t.File("m/a.safetensors"));
  MakeSparse(t.File("opts.yaml"), 2 << 20, "a: 1\n");
  ExpectOneLineError(
      "plan --engine trtllm --gpu h100 --model Qwen/Qwen3-32B "
      "--extra_llm_api_options " +
          (t.File("opts.yaml")),
      "over the 1.0 MiB limit");
}

TEST(HostileInputs, SafetensorsOffsetsThatOverflowAreRefused) {
  testing::ScratchDir t;
  fs::create_directories(t.File("m"));
  fs::copy_file(Hostile("index_total_size_overflow/config.json"), t.File("m/config.json"));
  const std::string header =
      R"({"a":{"dtype":"BF16","shape":[1],"data_offsets":[0,9223372036854775807]},)"
      R"("b":{"dtype":"BF16","shape":[1],"data_offsets":[0,9223372036854775807]}})";
  std::string len(8, '\0');
  for (int i = 0; i < 8; ++i) len[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
  std::ofstream(t.File("m/a.safetensors"), std::ios::binary) << len << header;
  ExpectOneLineError(kPlan + (t.File("m")), "overflows 64-bit integers");
  ExpectOneLineError(kPlan + Hostile("index_total_size_overflow"), "total_size");
}

TEST(HostileInputs, BinaryJunkLogEndsAfterABoundedPrefix) {
  testing::ScratchDir t;
  std::ofstream junk(t.File("junk.log"), std::ios::binary);
  uint32_t x = 12345;
  for (int i = 0; i < (3 << 20); ++i) {
    x = x * 1103515245u + 12345u;
    junk.put(static_cast<char>(x >> 24));
  }
  junk.close();
  ExpectOneLineError("explain " + (t.File("junk.log")), "are binary data");
  MakeSparse(t.File("zeros.log"), 200 << 20, "");
  ExpectOneLineError("explain " + (t.File("zeros.log")), "are binary data");
}

TEST(HostileInputs, IgnorePatternsNeverHangOrOverflow) {
  ExpectOneLineError(kPlan + Hostile("regex_outside_subset.json"),
                     "is outside the regular-expression subset kvplan reads (counted repetition");
  for (const char* ok : {"regex_catastrophic.json", "regex_long_alternation.json"}) {
    const CliRun r = Kvplan(kPlan + Hostile(ok));
    EXPECT_EQ(r.status, 0) << ok << ": " << r.out.substr(0, 500);
  }
}

TEST(HostileInputs, ImpossibleFiguresAreRefusedNotWrapped) {
  ExpectOneLineError(kPlan + Hostile("weights_overflow.json") + " --context-length 4096",
                     "overflows 64-bit integers");
  ExpectOneLineError(kPlan + Hostile("block_size_narrowed.json"), "weight_block_size[0]");
  ExpectOneLineError(kPlan + Hostile("bits_impossible.json"), "expected 1 to 32");
}

TEST(HostileInputs, UntrustedTextInMessagesIsEscapedAndCut) {
  ExpectOneLineError(kPlan + Hostile("control_bytes_in_value.json"), "\\x1b[31mevil\\r\\n");
}

TEST(HostileInputs, PastedCommandWithAHugeWordDoesNotCrash) {
  // std::regex overflowed the stack from about 40 KB (the whole command
  // line stays under the kernel's 128 KiB limit for one argument).
  const std::string word(45000, 'a');
  const CliRun r = Kvplan("plan --gpu h100 -- python3 -m sglang.launch_server --model-path " +
                          Hostile("regex_catastrophic.json") + " --served-model-name " + word +
                          " '2>" + word + "'");
  EXPECT_TRUE(r.status == 0 || r.status == 2) << r.status << ": " << r.out.substr(0, 500);
}

// `-=1` died with SIGSEGV (flag_parser.cc's '_'-for-'-' retry read past a
// one-character name), as an option and inside any pasted command.
TEST(HostileInputs, DashEqualsWordsEndInAResultOrOneLine) {
  for (const std::string& args :
       {std::string("plan --gpu h100 --model Qwen/Qwen3-8B -=1"),
        std::string("plan --gpu h100 -- python3 -m sglang.launch_server --model-path "
                    "Qwen/Qwen3-8B -=1"),
        std::string("plan --gpu h100 -- vllm serve Qwen/Qwen3-8B -=1 --=2 -"),
        std::string("plan --gpu h100 -- trtllm-serve Qwen/Qwen3-8B -=1")}) {
    SCOPED_TRACE(args);
    const CliRun r = Kvplan(args);
    EXPECT_TRUE(r.status == 0 || r.status == 2) << r.status << ": " << r.out.substr(0, 500);
    if (r.status == 2) ExpectOneLineError(args, "-");
  }
}

TEST(HostileInputs, JsonOutputOfANonUtf8PathIsValid) {
  testing::ScratchDir t;
  const std::string dir = t.File("bad\xff");
  fs::create_directories(dir);
  fs::copy_file(Hostile("regex_catastrophic.json"), dir + "/config.json");
  const CliRun r = Kvplan(kPlan + "'" + dir + "' --json");
  EXPECT_EQ(r.status, 0) << r.out.substr(0, 500);
  EXPECT_NE(r.out.find("bad\xef\xbf\xbd"), std::string::npos);  // U+FFFD
}

// "internal error", exit 1, was every --json output's answer to such a path,
// not only plan's: each verb that echoes a model or log path prints valid JSON.
TEST(HostileInputs, EveryJsonOutputOfANonUtf8PathIsValid) {
  testing::ScratchDir t;
  const std::string dir = t.File("bad\xff");
  fs::create_directories(dir);
  fs::copy_file(Hostile("regex_catastrophic.json"), dir + "/config.json");
  const std::string log = dir + "/run\xfe.log";
  fs::copy_file(kvplan::testing::SyntheticData("sglang/story_baseline_auto_mfs.log"), log);
  const std::string db = t.File("runs.db");
  ASSERT_EQ(testing::RunKvplan({"ingest", "--db", db, log}).exit_code, 0);
  const std::vector<std::vector<std::string>> verbs = {
      {"compare", "--gpu", "h100", "--model", dir, "--json"},
      {"perf", "--gpu", "h100", "--model", dir, "--json"},
      {"simulate", "--gpu", "h100", "--model", dir, "--concurrency", "2", "--num-requests", "4",
       "--json"},
      {"explain", log, "--json"},
      {"diff", log, log, "--json"},
      {"runs", "--db", db, "--json"},
  };
  for (const std::vector<std::string>& args : verbs) {
    SCOPED_TRACE(args[0]);
    const testing::CliResult r = testing::RunKvplan(args);
    EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 500);
    EXPECT_FALSE(nlohmann::json::parse(r.out, nullptr, false).is_discarded())
        << r.out.substr(0, 500);
  }
}

}  // namespace
}  // namespace kvplan
