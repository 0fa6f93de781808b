#include "explain/logged_gpu.h"

#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "testing/test_data.h"
#include "testing/tsv.h"

namespace kvplan {
namespace {

TEST(LoggedGpu, NvidiaSmiNamesFindTheCatalogEntry) {
  // The story logs' nvidia-smi table names the RTX PRO 6000 Blackwell Server Edition.
  const GpuSpec* g = FindLoggedGpu("NVIDIA RTX PRO 6000 Blackwell Server Edition");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->id, "rtx-pro-6000-server");
  EXPECT_EQ(FindLoggedGpu(""), nullptr);
  EXPECT_EQ(FindLoggedGpu("NVIDIA Imaginary 1"), nullptr);
}

TEST(LoggedGpu, UnknownGpuIsAStandInWithTheMeasuredTotalAndSaysSo) {
  RunRecord r;
  r.gpu_capacity_mib = 49140;
  std::string note;
  GpuSpec g = LoggedGpu(r, int64_t{47} << 30, "the pre-load free memory", &note);
  EXPECT_EQ(g.total_bytes, int64_t{47} << 30);
  EXPECT_EQ(g.capacity_mib, 49140);
  EXPECT_NE(note.find("not named in the log"), std::string::npos) << note;
}

struct PrintedGpu {
  std::string name;
  int64_t capacity_mib = 0;
  std::string expect;
  std::string source;
};

std::vector<PrintedGpu> PrintedGpus() {
  std::ifstream in(testing::RealData("gpu_names.tsv"));
  std::vector<PrintedGpu> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = testing::SplitFields(line, '\t');
    EXPECT_EQ(f.size(), 4u) << line;
    if (f.size() != 4) continue;
    rows.push_back({f[0], std::stoll(f[1]), f[2], f[3]});
  }
  return rows;
}

TEST(LoggedGpu, EveryNamePublicLogsPrintFindsItsEntryWithTheCapacityTheyShow) {
  const std::vector<PrintedGpu> rows = PrintedGpus();
  ASSERT_GE(rows.size(), 15u);
  for (const PrintedGpu& row : rows) {
    SCOPED_TRACE(row.name + " (" + row.source + ")");
    const GpuSpec* g = FindLoggedGpu(row.name, row.capacity_mib);
    if (row.expect == "unknown") {
      EXPECT_EQ(g, nullptr) << g->id;
      EXPECT_EQ(LoggedGpuAmbiguity(row.name, row.capacity_mib), "");
      continue;
    }
    if (row.expect.rfind("ambiguous:", 0) == 0) {
      EXPECT_EQ(g, nullptr) << g->id;
      std::string ids = row.expect.substr(10);
      for (size_t at = ids.find(','); at != std::string::npos; at = ids.find(',', at + 2)) {
        ids.replace(at, 1, ", ");
      }
      EXPECT_NE(LoggedGpuAmbiguity(row.name, row.capacity_mib).find(ids), std::string::npos);
      continue;
    }
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->id, row.expect);
    // The catalog's nvidia-smi capacity is what the public table shows.
    if (row.capacity_mib > 0) {
      EXPECT_EQ(g->capacity_mib, row.capacity_mib);
    }
  }
}

TEST(LoggedGpu, ANameNvidiaSmiCutIsNeverResolvedSilently) {
  // vllm#43412's table prints "NVIDIA RTX PRO 6000 Blac...   97887MiB": the Server, Workstation
  // and Max-Q editions all start so and all report 97887 MiB.
  const std::string cut = "NVIDIA RTX PRO 6000 Blac...";
  EXPECT_EQ(FindLoggedGpu(cut, 97887), nullptr);
  EXPECT_EQ(
      LoggedGpuAmbiguity(cut, 97887),
      "nvidia-smi cut the name 'NVIDIA RTX PRO 6000 Blac...': it is one of rtx-pro-6000-server, "
      "rtx-pro-6000-ws, rtx-pro-6000-max-q, all 97887 MiB; --gpu ID picks one");
  RunRecord r;
  r.gpu_name = cut;
  r.gpu_capacity_mib = 97887;
  std::string note;
  GpuSpec g = LoggedGpu(r, int64_t{95} << 30, "the pre-load free memory", &note);
  EXPECT_EQ(g.id, "unknown");
  EXPECT_EQ(g.total_bytes, int64_t{95} << 30);  // still planned, from what the log measured
  EXPECT_EQ(note.find("nvidia-smi cut the name"), 0u) << note;
  // A cut name that one catalog GPU starts with (synthetic: this one is made up) is that GPU,
  // and the note says how it was read.
  r.gpu_name = "NVIDIA H100 NV...";
  r.gpu_capacity_mib = 95830;
  g = LoggedGpu(r, int64_t{93} << 30, "the pre-load free memory", &note);
  EXPECT_EQ(g.id, "h100-nvl");
  EXPECT_NE(note.find("the log's 'NVIDIA H100 NV...' at 95830 MiB"), std::string::npos) << note;
}

TEST(LoggedGpu, AGpuOutsideTheCatalogSaysWhichPerfFiguresAreMissingAndWhereTheyComeFrom) {
  // geerlingguy/raspberry-pi-pcie-devices#790: an RTX 3060, 12288 MiB, not in the catalog.
  EXPECT_EQ(FindLoggedGpu("NVIDIA GeForce RTX 3060", 12288), nullptr);
  EXPECT_EQ(MissingPerfFiguresHint("NVIDIA GeForce RTX 3060"),
            "GPU 'NVIDIA GeForce RTX 3060' is not in kvplan's catalog: step times need its "
            "memory bandwidth and dense BF16 FLOPs (--gpu FILE.json supplies them; see "
            "docs/examples/my-gpu.json)");
}

}  // namespace
}  // namespace kvplan
