// The bundled catalog (data/models/): every id loads, every file has its source row in
// data/models/SOURCES.md, the weights estimated from each config agree with the published
// safetensors totals (data/models/safetensors_totals.tsv, each total read from a public
// model.safetensors.index.json), and every model the real cases and serving runs name is either
// bundled or listed here with the reason it is not.
#include "catalog/model_catalog.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/embedded_data.h"
#include "catalog/model.h"
#include "catalog/weights.h"
#include "testing/test_data.h"
#include "testing/tsv.h"

namespace kvplan {
namespace {

std::string SourceFile(const std::string& relative) {
  std::ifstream in(std::string(KVPLAN_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string FileNameOfId(const std::string& id) {
  return id.substr(0, id.find('/')) + "--" + id.substr(id.find('/') + 1) + ".json";
}

TEST(ModelCatalog, EveryBundledModelLoadsUnderItsId) {
  std::vector<std::string> ids = CatalogModelIds();
  ASSERT_GE(ids.size(), 60u);
  for (const std::string& id : ids) {
    ModelSpec m = LoadModel(id);
    EXPECT_EQ(m.id, id);
    EXPECT_GT(m.num_layers, 0) << id;
    EXPECT_GT(EstimateWeights(m, {}).total_params, 0) << id;
  }
}

// Each file is a row of SOURCES.md's tables ("| ORG--NAME.json | ..."), and no row names a file
// that is not bundled.
TEST(ModelCatalog, EveryBundledFileHasItsSourceRow) {
  const std::string sources = SourceFile("data/models/SOURCES.md");
  ASSERT_FALSE(sources.empty());
  std::set<std::string> rows;
  std::istringstream lines(sources);
  std::string line;
  const std::regex file_row(R"(^\| *`?([A-Za-z0-9_.-]+--[A-Za-z0-9_.-]+\.json)`? *\|)");
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_search(line, m, file_row)) rows.insert(m[1]);
  }
  std::set<std::string> files;
  for (const std::string& id : CatalogModelIds()) files.insert(FileNameOfId(id));
  for (const std::string& f : files) EXPECT_EQ(rows.count(f), 1u) << f << " has no source row";
  for (const std::string& r : rows) EXPECT_EQ(files.count(r), 1u) << r << " is not bundled";
}

struct PublishedTotal {
  std::string id;
  int64_t total_size = 0;
};

std::vector<PublishedTotal> PublishedTotals() {
  std::vector<PublishedTotal> totals;
  std::istringstream lines(SourceFile("data/models/safetensors_totals.tsv"));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream cells(line);
    PublishedTotal t;
    std::string total;
    std::getline(cells, t.id, '\t');
    std::getline(cells, total, '\t');
    t.total_size = std::stoll(total);
    totals.push_back(t);
  }
  return totals;
}

// The index's total_size is the bytes of every stored tensor; kvplan's estimate comes from the
// config alone, so this checks the config reading and the weight formulas together.
TEST(ModelCatalog, EstimatedCheckpointIsWithinOnePercentOfThePublishedTotal) {
  std::vector<PublishedTotal> totals = PublishedTotals();
  ASSERT_GE(totals.size(), 8u);
  for (const PublishedTotal& t : totals) {
    ASSERT_TRUE(FindCatalogModel(t.id).has_value()) << t.id << " is not bundled";
    int64_t estimate = EstimateWeights(LoadModel(t.id), {}).total_bytes;
    double error =
        std::abs(static_cast<double>(estimate - t.total_size)) / static_cast<double>(t.total_size);
    EXPECT_LT(error, 0.01) << t.id << ": estimated " << estimate << ", published " << t.total_size;
  }
}

// The published parameter counts of the entries added for issue 14 item 6
// (tests/data/real/catalog_params.tsv, each with where it is published): the count kvplan
// computes from the bundled config is within 1 % of it.
TEST(ModelCatalog, ParametersAreWithinOnePercentOfThePublishedCount) {
  std::vector<std::vector<std::string>> rows = testing::RealTsvRows("catalog_params.tsv", 3);
  ASSERT_GE(rows.size(), 20u);
  for (const std::vector<std::string>& row : rows) {
    ASSERT_TRUE(FindCatalogModel(row[0]).has_value()) << row[0] << " is not bundled";
    const double published = std::stod(row[1]);
    const int64_t params = EstimateWeights(LoadModel(row[0]), {}).total_params;
    EXPECT_LT(std::abs(static_cast<double>(params) - published) / published, 0.01)
        << row[0] << ": " << params << " parameters, published " << row[1] << " (" << row[2] << ")";
  }
}

// A ModelOpt export whose quantization is in hf_quant_config.json (not config.json) is bundled
// with that file as data/models/hf_quant/ORG--NAME.json: each such file belongs to a bundled
// config that has no quantization_config of its own (else the sidecar would be ignored) and
// the catalog entry loads quantized, as the model directory does (model_loader_test.cc).
TEST(ModelCatalog, EveryHfQuantSidecarQuantizesItsBundledConfig) {
  constexpr std::string_view kSidecars = "models/hf_quant/";
  int sidecars = 0;
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path.substr(0, kSidecars.size()) != kSidecars) continue;
    ++sidecars;
    std::string stem(f.path.substr(kSidecars.size()));
    stem.resize(stem.size() - std::string_view(".json").size());
    std::optional<CatalogEntry> entry = FindCatalogModel(stem);
    ASSERT_TRUE(entry.has_value()) << f.path << " has no bundled config";
    EXPECT_EQ(entry->hf_quant_config_json, f.content) << f.path;
    EXPECT_FALSE(nlohmann::json::parse(entry->config_json).contains("quantization_config"))
        << entry->id << ": its config.json is quantized already";
    EXPECT_EQ(LoadModel(entry->id).quant.method, "modelopt") << entry->id;
  }
  EXPECT_GE(sidecars, 4);
}

// nvidia/Qwen3-235B-A22B-NVFP4 against the bf16 Qwen/Qwen3-235B-A22B (the same geometry):
// NVFP4 stores each quantized weight in 4 bits plus one fp8 scale per 16, 4.5 bits of 16; the
// router gates its hf_quant_config excludes, the norms and the embeddings stay bf16.
TEST(ModelCatalog, NvidiaNvfp4SidecarPricesTheExpertsAtFourAndAHalfBits) {
  const ModelSpec fp4 = LoadModel("nvidia/Qwen3-235B-A22B-NVFP4");
  EXPECT_EQ(fp4.quant.weight_bits, 4);
  EXPECT_EQ(fp4.quant.group_size, 16);
  const WeightEstimate bf16 = EstimateWeights(LoadModel("Qwen/Qwen3-235B-A22B"), {});
  const WeightEstimate nvfp4 = EstimateWeights(fp4, {});
  EXPECT_EQ(nvfp4.total_params, bf16.total_params);
  const double ratio =
      static_cast<double>(nvfp4.total_bytes) / static_cast<double>(bf16.total_bytes);
  EXPECT_GT(ratio, 4.5 / 16);
  EXPECT_LT(ratio, 4.5 / 16 + 0.01) << "bf16 parts: embeddings, norms, gates";
}

// Models the public cases and serving runs name that are not bundled, and why. An entry leaves
// this list when its config is bundled (the test below then fails until it is removed).
const std::map<std::string, std::string>& NotBundled() {
  static const std::map<std::string, std::string> kNotBundled = {
      {"deepseek-ai/DeepSeek-V2-Lite-Chat", "only code fixtures that retype its fields"},
      {"deepseek-ai/DeepSeek-V3.2-Exp", "no public copy found (DeepSeek-V3.2 is bundled)"},
      {"deepseek-ai/DeepSeek-V3.2-Exp-16L64E", "a cut-down test checkpoint, not a Hub model"},
      {"google/gemma-3-4b-it", "no byte-faithful public copy found"},
      {"meta-llama/Llama-3.2-11B-Vision", "MllamaForConditionalGeneration is not accepted"},
      {"neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8", "no public copy found"},
      {"nvidia/Llama-3.1-8B-Instruct-FP8",
       "no public copy found; its quantization is in hf_quant_config.json, which a one-file "
       "catalog entry cannot carry"},
      {"nytopop/Qwen3-30B-A3B.w4a16", "a personal quantization; no public copy found"},
      {"Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8",
       "no public copy found (the bf16 Qwen3-Coder-30B-A3B-Instruct is bundled)"},
      {"Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8",
       "no public copy found (the bf16 Qwen3-Coder-480B-A35B-Instruct is bundled)"},
      {"zhipuai/GLM-5", "the case's own spelling: the Hub repository is zai-org/GLM-5, bundled"},
  };
  return kNotBundled;
}

std::set<std::string> ModelsNamedInRealData() {
  const std::regex hub_id(R"(^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$)");
  std::set<std::string> ids;
  for (const char* file : {"cases/sglang.jsonl", "cases/vllm.jsonl", "serving/runs.jsonl",
                           "serving/validation-runs.jsonl"}) {
    std::ifstream in(testing::RealData(file));
    EXPECT_TRUE(in.good()) << file;
    std::string line;
    while (std::getline(in, line)) {
      nlohmann::json record = nlohmann::json::parse(line);
      if (!record.contains("model") || !record["model"].is_string()) continue;
      std::string id = record["model"];
      if (std::regex_match(id, hub_id)) ids.insert(id);
    }
  }
  return ids;
}

TEST(ModelCatalog, EveryModelTheRealCasesNameIsBundledOrExplained) {
  std::set<std::string> named = ModelsNamedInRealData();
  ASSERT_GE(named.size(), 30u);
  for (const std::string& id : named) {
    bool bundled = FindCatalogModel(id).has_value();
    EXPECT_TRUE(bundled || NotBundled().count(id) == 1) << id << ": bundle it or say why not";
  }
  for (const auto& [id, reason] : NotBundled()) {
    EXPECT_FALSE(FindCatalogModel(id).has_value()) << id << " is bundled now: drop it here";
    EXPECT_EQ(named.count(id), 1u) << id << " is no longer named in the real data";
  }
}

}  // namespace
}  // namespace kvplan
