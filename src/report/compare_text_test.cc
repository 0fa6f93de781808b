// compare's header says which figures are the verb's own defaults (issue 11 item 4).
#include <gtest/gtest.h>

#include "kvplan/compare.h"
#include "kvplan/render.h"

namespace kvplan {
namespace {

TEST(CompareText, TheModelsContextIsSaidToBeTheDefault) {
  CompareResult c;
  c.request.model = "Qwen/Qwen3-8B";
  c.request.gpu = "h100";
  c.request.tp = 1;
  c.context_length = 40960;
  const std::string defaulted = RenderCompareText(c);
  EXPECT_NE(defaulted.find("context 40,960 tokens (the model's)\n"), std::string::npos)
      << defaulted;
  c.request.context_length = 40960;  // given with --context-length
  const std::string given = RenderCompareText(c);
  EXPECT_NE(given.find("context 40,960 tokens\n"), std::string::npos) << given;
}

}  // namespace
}  // namespace kvplan
