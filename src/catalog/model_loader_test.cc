// LoadModel from files, model directories, safetensors and the HF cache.
#include "catalog/model_loader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "catalog/model.h"
#include "testing/input_error.h"
#include "testing/scratch_dir.h"

namespace kvplan {
namespace {
namespace fs = std::filesystem;

constexpr const char* kTinyLlama = R"({"architectures":["LlamaForCausalLM"],"hidden_size":64,
  "intermediate_size":128,"num_hidden_layers":2,"num_attention_heads":4,"num_key_value_heads":2,
  "vocab_size":1000,"torch_dtype":"bfloat16"})";

void Write(const fs::path& p, std::string_view content) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << content;
}

// A .safetensors file whose header lists tensors of the given byte sizes.
void WriteSafetensors(const fs::path& p, const std::vector<int64_t>& sizes) {
  std::string header = "{\"__metadata__\":{\"format\":\"pt\"}";
  int64_t off = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    header += ",\"t" + std::to_string(i) + "\":{\"dtype\":\"BF16\",\"shape\":[" +
              std::to_string(sizes[i] / 2) + "],\"data_offsets\":[" + std::to_string(off) + "," +
              std::to_string(off + sizes[i]) + "]}";
    off += sizes[i];
  }
  header += "}";
  std::string bytes(8, '\0');
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  Write(p, bytes + header + std::string(static_cast<size_t>(off), '\0'));
}

std::string LoadError(const std::string& spec) {
  return testing::InputErrorOf([&] { LoadModel(spec); });
}

// Points the HF cache lookups at `home` for the scope of a test.
class ScopedHfHome {
 public:
  explicit ScopedHfHome(const fs::path& home) {
    for (const char* var : {"HF_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME", "HOME"}) {
      const char* v = std::getenv(var);
      saved_.emplace_back(var, v ? std::optional<std::string>(v) : std::nullopt);
      unsetenv(var);
    }
    setenv("HF_HOME", home.c_str(), 1);
  }
  ~ScopedHfHome() {
    for (const auto& [var, value] : saved_) {
      if (value) {
        setenv(var, value->c_str(), 1);
      } else {
        unsetenv(var);
      }
    }
  }

 private:
  std::vector<std::pair<const char*, std::optional<std::string>>> saved_;
};

TEST(ModelLoader, ConfigFilePath) {
  testing::ScratchDir t;
  Write(t.path() / "my.json", kTinyLlama);
  ModelSpec m = LoadModel((t.path() / "my.json").string());
  EXPECT_EQ(m.hidden_size, 64);
  EXPECT_EQ(m.id, (t.path() / "my.json").string());
  EXPECT_FALSE(m.checkpoint_bytes.has_value());
}

TEST(ModelLoader, ModelDirectoryReadsIndexTotalSize) {
  testing::ScratchDir t;
  Write(t.path() / "config.json", kTinyLlama);
  Write(t.path() / "model.safetensors.index.json",
        R"({"metadata":{"total_size":16060522496},"weight_map":{}})");
  ModelSpec m = LoadModel(t.path().string());
  ASSERT_TRUE(m.checkpoint_bytes.has_value());
  EXPECT_EQ(*m.checkpoint_bytes, 16060522496);
}

TEST(ModelLoader, ModelDirectorySumsSafetensorsHeaders) {
  testing::ScratchDir t;
  Write(t.path() / "config.json", kTinyLlama);
  WriteSafetensors(t.path() / "model-00001-of-00002.safetensors", {128, 256});
  WriteSafetensors(t.path() / "model-00002-of-00002.safetensors", {1000});
  EXPECT_EQ(SafetensorsTensorBytes(t.path() / "model-00002-of-00002.safetensors"), 1000);
  ModelSpec m = LoadModel(t.path().string());
  ASSERT_TRUE(m.checkpoint_bytes.has_value());
  EXPECT_EQ(*m.checkpoint_bytes, 128 + 256 + 1000);
  // Also when given the config.json beside them.
  EXPECT_EQ(*LoadModel((t.path() / "config.json").string()).checkpoint_bytes, 1384);
}

TEST(ModelLoader, HuggingFaceCacheByIdAndByRepoDir) {
  testing::ScratchDir t;
  fs::path repo = t.path() / "hub" / "models--Acme--Tiny-1B";
  Write(repo / "refs" / "main", "abc123\n");
  Write(repo / "snapshots" / "abc123" / "config.json", kTinyLlama);
  WriteSafetensors(repo / "snapshots" / "abc123" / "model.safetensors", {4096});
  ScopedHfHome home(t.path());
  ModelSpec m = LoadModel("Acme/Tiny-1B");
  EXPECT_EQ(m.id, "Acme/Tiny-1B");
  EXPECT_EQ(m.num_kv_heads, 2);
  EXPECT_EQ(*m.checkpoint_bytes, 4096);
  EXPECT_EQ(LoadModel(repo.string()).hidden_size, 64);
  // Not in the cache and not bundled: one clear error.
  std::string e = LoadError("Acme/Missing-2B");
  EXPECT_NE(e.find("unknown model \"Acme/Missing-2B\""), std::string::npos) << e;
}

// ModelOpt exports: the quantization lives in hf_quant_config.json.
TEST(ModelLoader, HfQuantConfigBesideConfig) {
  testing::ScratchDir t;
  Write(t.path() / "config.json", kTinyLlama);
  Write(t.path() / "hf_quant_config.json",
        R"({"producer":{"name":"modelopt"},"quantization":{"quant_algo":"NVFP4",
            "group_size":16,"exclude_modules":["lm_head"]}})");
  ModelSpec m = LoadModel(t.path().string());
  EXPECT_EQ(m.quant.method, "modelopt");
  EXPECT_EQ(m.quant.weight_bits, 4);
  Write(t.path() / "hf_quant_config.json", "[]");
  EXPECT_NE(LoadError(t.path().string()).find("hf_quant_config.json"), std::string::npos);
}

TEST(ModelLoader, CatalogIdsAreCaseInsensitiveAndAcceptDashes) {
  EXPECT_EQ(LoadModel("qwen/qwen3-8b").id, "Qwen/Qwen3-8B");
  EXPECT_EQ(LoadModel("Qwen--Qwen3-8B").id, "Qwen/Qwen3-8B");
  std::vector<std::string> ids = CatalogModelIds();
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
  EXPECT_NE(std::find(ids.begin(), ids.end(), "deepseek-ai/DeepSeek-V3"), ids.end());
}

TEST(ModelLoader, BadFilesAreOneLineInputErrors) {
  testing::ScratchDir t;
  Write(t.path() / "empty.json", "");
  Write(t.path() / "junk.bin", std::string("\x00\x01\xff\xfe garbage", 13));
  Write(t.path() / "trunc.json", std::string(kTinyLlama).substr(0, 60));
  Write(t.path() / "list.json", "[\"LlamaForCausalLM\"]");
  fs::create_directories(t.path() / "nodir");
  const std::pair<std::string, std::string> kCases[] = {
      {(t.path() / "missing.json").string(), "unknown model"},
      {(t.path() / "empty.json").string(), "empty"},
      {(t.path() / "junk.bin").string(), "not valid JSON"},
      {(t.path() / "trunc.json").string(), "not valid JSON"},
      {(t.path() / "list.json").string(), "expected a JSON object"},
      {(t.path() / "nodir").string(), "has no config.json"},
      {"", "empty model name"},
  };
  for (const auto& [spec, want] : kCases) {
    std::string e = LoadError(spec);
    EXPECT_NE(e.find(want), std::string::npos) << spec << ": " << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(ModelLoader, GarbledSafetensorsAreInputErrors) {
  testing::ScratchDir t;
  Write(t.path() / "config.json", kTinyLlama);
  Write(t.path() / "a.safetensors", "\x05");  // shorter than the length prefix
  EXPECT_NE(LoadError(t.path().string()).find("truncated safetensors"), std::string::npos);
  Write(t.path() / "a.safetensors", std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8));
  EXPECT_NE(LoadError(t.path().string()).find("not a safetensors file"), std::string::npos);
  Write(t.path() / "a.safetensors", std::string("\x04\0\0\0\0\0\0\0[1]x", 12));
  EXPECT_NE(LoadError(t.path().string()).find("not a JSON object"), std::string::npos);
  fs::remove(t.path() / "a.safetensors");
  Write(t.path() / "model.safetensors.index.json", R"({"weight_map":{}})");
  EXPECT_NE(LoadError(t.path().string()).find("metadata"), std::string::npos);
}

}  // namespace
}  // namespace kvplan
