// The published setups (data/reference/) against the catalog that owns the
// GPU figures (data/gpus.json).
#include "perf/reference_hardware.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "perf/published_collectives.h"
#include "perf/published_decode.h"

namespace kvplan {
namespace {

double ScaleUpGbps(const GpuSpec& g) {
  return (g.link == LinkKind::kPcie ? g.pcie_bandwidth : g.nvlink_bandwidth) / 1e9;
}

bool IsReferenceGpu(const std::string& id) {
  const auto& s = ReferenceGpuSetups();
  return std::any_of(s.begin(), s.end(), [&](const ReferenceGpuSetup& r) { return r.id == id; });
}

TEST(ReferenceHardware, EveryReferenceGpuIsACatalogGpuWithTheSetupsFigures) {
  ASSERT_FALSE(ReferenceGpuSetups().empty());
  for (const ReferenceGpuSetup& s : ReferenceGpuSetups()) {
    const GpuSpec& g = FindGpu(s.id);  // throws for a GPU the catalog lacks
    EXPECT_EQ(g.id, s.id) << "an id, not an alias";
    EXPECT_DOUBLE_EQ(g.hbm_bandwidth / 1e12, s.hbm_tb_s) << s.id;
    EXPECT_DOUBLE_EQ(g.bf16_flops / 1e12, s.bf16_tflops) << s.id;
    EXPECT_DOUBLE_EQ(g.fp8_flops / 1e12, s.fp8_tflops) << s.id;
    EXPECT_DOUBLE_EQ(ScaleUpGbps(g), s.link_gb_s) << s.id;
    EXPECT_FALSE(s.source.empty()) << s.id;
  }
}

TEST(ReferenceHardware, ReferenceGpuIsTheCatalogsGpu) {
  EXPECT_EQ(ReferenceGpu("b200").hbm_bandwidth, FindGpu("b200").hbm_bandwidth);
  EXPECT_EQ(ReferenceGpu("h100-sxm").name, "NVIDIA H100 80GB HBM3");
  EXPECT_THROW(ReferenceGpu("l4"), InputError);  // in the catalog, in no published setup
}

TEST(ReferenceHardware, EveryPublishedRowNamesAReferenceGpuAndModel) {
  for (const PublishedCollective& f : PublishedCollectives()) {
    EXPECT_TRUE(IsReferenceGpu(f.gpu)) << f.gpu;
  }
  const std::vector<std::string> models = ReferenceModelIds();
  for (const PublishedDecode& f : PublishedDecodes()) {
    EXPECT_TRUE(IsReferenceGpu(f.gpu)) << f.gpu;
    EXPECT_NE(std::find(models.begin(), models.end(), f.model), models.end()) << f.model;
  }
}

TEST(ReferenceHardware, EveryReferenceModelLoads) {
  for (const std::string& id : ReferenceModelIds()) {
    const ModelSpec m = ReferenceModel(id);
    EXPECT_EQ(m.id, id);
    EXPECT_GT(m.num_layers, 0) << id;
    EXPECT_EQ(static_cast<int>(m.layer_kinds.size()), m.num_layers) << id;
  }
  EXPECT_THROW(ReferenceModel("gpt-2"), InputError);
}

// The geometry stated in data/reference/models.json, spot-checked against the
// config.json values it cites.
TEST(ReferenceHardware, ReferenceModelsKeepTheirGeometry) {
  const ModelSpec ds = ReferenceModel("deepseek-v3");
  EXPECT_EQ(ds.attention, AttentionKind::kMla);
  EXPECT_EQ(ds.kv_lora_rank, 512);
  EXPECT_EQ(ds.NumMoeLayers(), 58);  // 61 layers, the first 3 dense
  EXPECT_EQ(ds.quant.block_n, 128);
  EXPECT_TRUE(ds.quant.experts_quantized);
  const ModelSpec llama = ReferenceModel("llama-3.1-8b");
  EXPECT_EQ(llama.head_dim, 128);  // 4096 / 32
  EXPECT_EQ(llama.v_head_dim, 128);
  EXPECT_TRUE(ReferenceModel("qwen3-1.7b").tie_word_embeddings);
  EXPECT_EQ(ReferenceModel("llama-3.3-70b-fp8").quant.method, "fp8");
  EXPECT_EQ(ReferenceModel("llama-3.3-70b-fp8").hidden_size, 8192);
  EXPECT_EQ(ReferenceModel("kimi-k2.6").quant.group_size, 32);
}

}  // namespace
}  // namespace kvplan
