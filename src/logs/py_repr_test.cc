#include "logs/py_repr.h"

#include <string>

#include <gtest/gtest.h>

namespace kvplan {
namespace {

TEST(PyRepr, ServerArgsScalarsListsAndNestedCalls) {
  PyParse p = ParsePyRepr(
      "ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=8, mem_fraction_static=0.88, "
      "context_length=None, enable_dp_attention=True, cuda_graph_bs=[1, 2, 4], "
      "json_model_override_args='{\"a\": 1}', extra={'k': (1, 2.5e-3)}, "
      "device=device(type='cuda', index=0), fmt=<LoadFormat.AUTO: 'auto'>, neg=-3)");
  ASSERT_TRUE(p.complete) << p.problem;
  const PyValue& v = p.value;
  ASSERT_EQ(v.kind, PyValue::Kind::kCall);
  EXPECT_EQ(v.text, "ServerArgs");
  EXPECT_EQ(v.Kwarg("model_path")->text, "Qwen/Qwen3-8B");
  EXPECT_EQ(v.Kwarg("tp_size")->integer, 8);
  EXPECT_DOUBLE_EQ(v.Kwarg("mem_fraction_static")->number, 0.88);
  EXPECT_EQ(v.Kwarg("context_length")->kind, PyValue::Kind::kNone);
  EXPECT_TRUE(v.Kwarg("enable_dp_attention")->boolean);
  EXPECT_EQ(v.Kwarg("cuda_graph_bs")->items.size(), 3u);
  EXPECT_EQ(v.Kwarg("cuda_graph_bs")->Display(), "[1, 2, 4]");
  EXPECT_EQ(v.Kwarg("json_model_override_args")->text, "{\"a\": 1}");
  const PyValue* extra = v.Kwarg("extra");
  ASSERT_EQ(extra->kind, PyValue::Kind::kDict);
  EXPECT_EQ(extra->keys[0].text, "k");
  EXPECT_DOUBLE_EQ(extra->items[0].items[1].number, 0.0025);
  EXPECT_EQ(v.Kwarg("device")->Kwarg("type")->text, "cuda");
  EXPECT_EQ(v.Kwarg("fmt")->kind, PyValue::Kind::kOpaque);
  EXPECT_EQ(v.Kwarg("neg")->integer, -3);
}

TEST(PyRepr, StringEscapes) {
  PyParse p = ParsePyRepr(R"('it\'s \\ a\ttab \x41\u00e9')");
  ASSERT_TRUE(p.complete);
  EXPECT_EQ(p.value.text, "it's \\ a\ttab A\xc3\xa9");
  EXPECT_EQ(ParsePyRepr(R"("say \"hi\"")").value.text, "say \"hi\"");
}

TEST(PyRepr, TrimmedReprRecovers) {
  // As in ../shared/cases sglang-l40s-llama31-8b-default-mfs-pr13023: "[...]" where text was cut.
  PyParse p = ParsePyRepr(
      "ServerArgs(model_path='m', [...] mem_fraction_static=0.851, [...] cuda_graph_max_bs=32, "
      "[...]");
  EXPECT_FALSE(p.complete);
  EXPECT_DOUBLE_EQ(p.value.Kwarg("mem_fraction_static")->number, 0.851);
  EXPECT_EQ(p.value.Kwarg("cuda_graph_max_bs")->integer, 32);
}

TEST(PyRepr, GarbledArgumentIsSkippedNotFatal) {
  PyParse p = ParsePyRepr("ServerArgs(a=1, b=@@@, c='x')");
  EXPECT_FALSE(p.complete);
  EXPECT_EQ(p.value.Kwarg("a")->integer, 1);
  EXPECT_EQ(p.value.Kwarg("b"), nullptr);
  EXPECT_EQ(p.value.Kwarg("c")->text, "x");
}

TEST(PyRepr, DeepNestingIsAProblemNotACrash) {
  std::string deep =
      "ServerArgs(a=" + std::string(100000, '[') + std::string(100000, ']') + ", b=2)";
  PyParse p = ParsePyRepr(deep);
  EXPECT_FALSE(p.complete);
  EXPECT_NE(p.problem.find("nested deeper"), std::string::npos);
  EXPECT_EQ(p.value.Kwarg("b")->integer, 2);
}

TEST(PyRepr, TupleSetAndParenthesisedValue) {
  EXPECT_EQ(ParsePyRepr("(1,)").value.kind, PyValue::Kind::kTuple);
  EXPECT_EQ(ParsePyRepr("(1)").value.kind, PyValue::Kind::kInt);
  EXPECT_EQ(ParsePyRepr("{1, 2}").value.kind, PyValue::Kind::kSet);
  EXPECT_EQ(ParsePyRepr("{}").value.kind, PyValue::Kind::kDict);
  EXPECT_EQ(ParsePyRepr("99999999999999999999999").value.kind, PyValue::Kind::kFloat);
}

TEST(PyRepr, UnterminatedInputsAreIncomplete) {
  for (const char* text : {"'abc", "[1, 2", "{'a': ", "ServerArgs(a=1", "<x", "ServerArgs(a='"}) {
    EXPECT_FALSE(ParsePyRepr(text).complete) << text;
  }
}

}  // namespace
}  // namespace kvplan
