// --gpu FILE.json: a user's GPU description (synthetic files written by the test).
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "base/units.h"
#include "catalog/gpu.h"
#include "kvplan/error.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

constexpr const char* kMyGpu = R"({"name": "Lab GPU 48GB", "capacity_mib": 49152,
  "hbm_tb_s": 0.96, "bf16_tflops": 180, "link": "pcie", "pcie_gb_s": 32})";

std::string GpuFileErrorOf(const std::string& text) {
  return testing::InputErrorOf([&] { ParseUserGpu(text, "my-gpu.json"); });
}

TEST(UserGpu, RequiredFieldsAndDefaults) {
  const GpuSpec g = ParseUserGpu(kMyGpu, "my-gpu.json");
  EXPECT_EQ(g.id, "lab-gpu-48gb");
  EXPECT_EQ(g.name, "Lab GPU 48GB");
  EXPECT_EQ(g.capacity_mib, 49152);
  EXPECT_EQ(g.total_bytes, int64_t{49152} * kMiB);  // total_mib defaults to the capacity
  EXPECT_DOUBLE_EQ(g.hbm_bandwidth, 0.96e12);
  EXPECT_DOUBLE_EQ(g.bf16_flops, 180e12);
  EXPECT_DOUBLE_EQ(g.pcie_bandwidth, 32e9);
  EXPECT_EQ(g.compute_capability, 90);
  // The defaults taken are said where every output shows the GPU's source.
  EXPECT_NE(g.source.find("user file my-gpu.json; assumed: vendor \"nvidia\", "
                          "compute_capability 90"),
            std::string::npos)
      << g.source;
}

TEST(UserGpu, SaysInOneLineWhichFieldIsMissing) {
  std::string no_link_bw = kMyGpu;
  no_link_bw.replace(no_link_bw.find(", \"pcie_gb_s\": 32"), 17, "");
  EXPECT_EQ(GpuFileErrorOf(no_link_bw),
            "my-gpu.json: missing field 'pcie_gb_s' (the pcie bandwidth per GPU, one direction, "
            "GB/s)");
  EXPECT_EQ(GpuFileErrorOf(R"({"name": "x"})"),
            "my-gpu.json: missing field 'capacity_mib' (nvidia-smi memory.total in MiB)");
  std::string typo = kMyGpu;
  typo.replace(typo.find("bf16_tflops"), 11, "bf16_tflop");
  EXPECT_EQ(GpuFileErrorOf(typo), "my-gpu.json: unknown field 'bf16_tflop'");
  EXPECT_EQ(GpuFileErrorOf(std::string(kMyGpu).replace(1, 0, "\"hbm\": 1, ")),
            "my-gpu.json: unknown field 'hbm'");
  EXPECT_EQ(GpuFileErrorOf("[1]").find("my-gpu.json: not a JSON object"), 0u);
  EXPECT_EQ(GpuFileErrorOf(std::string(kMyGpu).replace(1, 0, "\"vendor\": \"intel\", ")),
            "my-gpu.json: vendor 'intel' is not nvidia or amd (kvplan models the engines' CUDA and "
            "ROCm builds only)");
  for (const std::string& e : {GpuFileErrorOf(no_link_bw), GpuFileErrorOf(typo)}) {
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(UserGpu, AFileWithoutRatesPlansMemoryAndStepTimesNameWhatIsMissing) {
  // Memory plans need the capacity only; the bandwidth and FLOPs are step-time figures.
  std::string memory_only = kMyGpu;
  memory_only.replace(memory_only.find("\"hbm_tb_s\": 0.96, \"bf16_tflops\": 180, "), 38, "");
  const GpuSpec g = ParseUserGpu(memory_only, "my-gpu.json");
  EXPECT_EQ(g.capacity_mib, 49152);
  EXPECT_EQ(g.file, "my-gpu.json");
  EXPECT_NE(g.source.find("not stated: hbm_tb_s, bf16_tflops"), std::string::npos) << g.source;
  try {
    RequireStepTimeFigures(g, "kvplan perf");
    ADD_FAILURE() << "a file without rates was accepted for step times";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "my-gpu.json: kvplan perf needs 'hbm_tb_s' (memory bandwidth in TB/s) and "
                 "'bf16_tflops' (dense BF16 TFLOP/s) for step times; the file does not state it");
  }
  EXPECT_NO_THROW(RequireStepTimeFigures(ParseUserGpu(kMyGpu, "my-gpu.json"), "kvplan perf"));
  EXPECT_NO_THROW(RequireStepTimeFigures(FindGpu("h100-nvl"), "kvplan perf"));
}

TEST(UserGpu, CapacityGivenOnTheCommandLineReplacesTheFilesOrTheCatalogs) {
  EXPECT_EQ(GpuWithCapacity("rtx-4090", int64_t{24217}).capacity_mib, 24217);
  EXPECT_EQ(GpuWithCapacity("rtx-4090", std::nullopt).capacity_mib, 24564);
  EXPECT_THROW(GpuWithCapacity("rtx-4090", int64_t{24}), InputError);       // GiB, not MiB
  EXPECT_THROW(GpuWithCapacity("rtx-4090", int64_t{1} << 40), InputError);  // bytes
}

TEST(UserGpu, FindGpuReadsAFileOnce) {
  const std::string path = ::testing::TempDir() + "kvplan-user-gpu.json";
  std::ofstream(path) << kMyGpu;
  EXPECT_TRUE(IsGpuFile(path));
  EXPECT_TRUE(IsGpuFile("GPU.JSON"));
  EXPECT_FALSE(IsGpuFile("h100"));
  const GpuSpec& g = FindGpu(path);
  EXPECT_EQ(g.name, "Lab GPU 48GB");
  EXPECT_EQ(&FindGpu(path), &g);  // a stable reference, like a catalog GPU's
  std::remove(path.c_str());
  EXPECT_THROW(FindGpu(::testing::TempDir() + "no-such-gpu.json"), InputError);
}

}  // namespace
}  // namespace kvplan
