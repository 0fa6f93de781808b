#include "explain/logged_gpu.h"

#include <gtest/gtest.h>

namespace kvplan {
namespace {

TEST(LoggedGpu, NvidiaSmiNamesFindTheCatalogEntry) {
  // The story logs' nvidia-smi table names the RTX PRO 6000 Blackwell Server Edition.
  const GpuSpec* g = FindLoggedGpu("NVIDIA RTX PRO 6000 Blackwell Server Edition");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->id, "rtx-pro-6000");
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

}  // namespace
}  // namespace kvplan
