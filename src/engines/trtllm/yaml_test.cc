#include "engines/trtllm/yaml.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

TEST(SimpleYaml, KeyValuesAndOneNestingLevel) {
  auto m = ParseSimpleYaml(
      "# comment\nmax_num_tokens: 4096\nkv_cache_config:\n  free_gpu_memory_fraction: 0.85 # c\n"
      "  dtype: \"fp8\"\nbackend: 'pytorch'\n\n",
      "f.yaml");
  EXPECT_EQ(m.at("max_num_tokens"), "4096");
  EXPECT_EQ(m.at("kv_cache_config.free_gpu_memory_fraction"), "0.85");
  EXPECT_EQ(m.at("kv_cache_config.dtype"), "fp8");
  EXPECT_EQ(m.at("backend"), "pytorch");
  EXPECT_EQ(m.size(), 4u);
}

TEST(SimpleYaml, RejectsWhatItDoesNotRead) {
  EXPECT_THROW(ParseSimpleYaml("a:\n  - 1\n", "f"), InputError);
  EXPECT_THROW(ParseSimpleYaml("a:\n  b:\n    c: 1\n", "f"), InputError);
  EXPECT_THROW(ParseSimpleYaml("a: {b: 1}\n", "f"), InputError);
  EXPECT_THROW(ParseSimpleYaml("a: |\n  text\n", "f"), InputError);
  EXPECT_THROW(ParseSimpleYaml("just words\n", "f"), InputError);
  EXPECT_THROW(ParseSimpleYaml("  b: 1\n", "f"), InputError);
  EXPECT_THROW(ParseSimpleYaml("a: 1\na: 2\n", "f"), InputError);
  const std::string what =
      testing::InputErrorOf([&] { ParseSimpleYaml("ok: 1\nx:\n  - y\n", "extra.yaml"); });
  EXPECT_NE(what.find("extra.yaml line 3"), std::string::npos) << what;
}

TEST(SimpleYaml, UrlValueKeepsItsColon) {
  auto m = ParseSimpleYaml("endpoint: http://host:8000/v1\n", "f");
  EXPECT_EQ(m.at("endpoint"), "http://host:8000/v1");
}

}  // namespace
}  // namespace kvplan
