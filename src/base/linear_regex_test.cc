// The linear-time matcher: Python re.search answers on the ignore patterns
// real configs use, refusals outside the subset, and no blow-up.
#include "base/linear_regex.h"

#include <gtest/gtest.h>

namespace kvplan {
namespace {

bool Search(std::string_view pattern, std::string_view text) {
  std::string why;
  std::optional<LinearRegex> re = LinearRegex::Compile(pattern, &why);
  EXPECT_TRUE(re.has_value()) << pattern << ": " << why;
  return re && re->Search(text);
}

std::string Refusal(std::string_view pattern) {
  std::string why;
  EXPECT_FALSE(LinearRegex::Compile(pattern, &why).has_value()) << pattern;
  return why;
}

TEST(LinearRegex, AnswersAsPythonReSearch) {
  // Patterns from real compressed-tensors / ModelOpt configs.
  EXPECT_TRUE(Search(R"(.*mlp\.gate$)", "model.layers.3.mlp.gate"));
  EXPECT_FALSE(Search(R"(.*mlp\.gate$)", "model.layers.3.mlp.gate_proj"));
  EXPECT_TRUE(Search(R"(re:.*)", "re:x"));
  EXPECT_TRUE(Search(R"(^model\.layers\.[0-9]+\.self_attn.*)", "model.layers.12.self_attn.o_proj"));
  EXPECT_FALSE(Search(R"(^model\.layers\.\d+\.self_attn)", "model.layers.x.self_attn"));
  EXPECT_TRUE(Search(R"(model.layers.(0|1|2).mlp)", "model.layers.2.mlp.down_proj"));
  EXPECT_FALSE(Search(R"(model.layers.(0|1|2).mlp)", "model.layers.3.mlp.down_proj"));
  EXPECT_TRUE(Search(R"(visual)", "model.visual.blocks.0"));  // search, not match
  EXPECT_TRUE(Search(R"(^lm_head$)", "lm_head"));
  EXPECT_FALSE(Search(R"(^lm_head$)", "model.lm_head"));
  EXPECT_TRUE(Search(R"(layers\.[^.]+\.mlp\.experts?\.\w+)", "layers.0.mlp.experts.down"));
  EXPECT_TRUE(Search(R"((?:shared_)?experts?.*?proj)", "mlp.shared_experts.down_proj"));
  EXPECT_TRUE(Search(R"(a+b?c*$)", "xaa"));
  EXPECT_TRUE(Search(R"([-a-c\]]x)", "]x"));
  EXPECT_TRUE(Search(R"([^\d]z)", "az"));
  EXPECT_FALSE(Search(R"([^\d]z)", "1z"));
  EXPECT_TRUE(Search(R"()", ""));
  EXPECT_TRUE(Search(R"(a|)", "b"));
}

TEST(LinearRegex, CatastrophicPatternsRunInLinearTime) {
  // Backtracking matchers take exponential time on these (std::regex hung).
  const std::string text(100000, 'a');
  EXPECT_FALSE(Search("(.*)*Z", text));
  EXPECT_FALSE(Search("(a|a)*(a*)*b", text));
  EXPECT_TRUE(Search("(a*)*a$", text));
  // std::regex recursed per character: a 200 KB text overflowed the stack.
  EXPECT_TRUE(Search("^(a|b)*$", std::string(200000, 'b')));
  // A long alternation (std::regex overflowed the stack compiling it).
  std::string alt = "x";
  while (alt.size() < 4000) alt += "|y";
  EXPECT_TRUE(Search(alt, "zzzy"));
}

TEST(LinearRegex, RefusesWhatItDoesNotImplement) {
  EXPECT_NE(Refusal("a{2}").find("counted repetition"), std::string::npos);
  EXPECT_NE(Refusal("(?=x)").find("group extension"), std::string::npos);
  EXPECT_NE(Refusal("(?P<n>x)").find("group extension"), std::string::npos);
  EXPECT_NE(Refusal(R"((a)\1)").find("escape"), std::string::npos);
  EXPECT_NE(Refusal(R"(\bx)").find("escape"), std::string::npos);
  EXPECT_NE(Refusal("a**").find("repeated repetition"), std::string::npos);
  EXPECT_NE(Refusal("*a").find("nothing to repeat"), std::string::npos);
  EXPECT_NE(Refusal("(ab").find("unterminated group"), std::string::npos);
  EXPECT_NE(Refusal("ab)").find("unbalanced"), std::string::npos);
  EXPECT_NE(Refusal("[ab").find("unterminated character class"), std::string::npos);
  EXPECT_NE(Refusal("[z-a]").find("bad character range"), std::string::npos);
  EXPECT_NE(Refusal("a\\").find("trailing backslash"), std::string::npos);
  EXPECT_NE(Refusal(std::string(70, '(') + std::string(70, ')')).find("nested"), std::string::npos);
  EXPECT_NE(Refusal(std::string(5000, 'a')).find("limit"), std::string::npos);
}

}  // namespace
}  // namespace kvplan
