#include "explain/log_sglang_args.h"

#include <gtest/gtest.h>

namespace kvplan {
namespace {

RunRecord WithSettings(std::vector<LoggedSetting> settings) {
  RunRecord r;
  r.engine = "sglang";
  r.settings = std::move(settings);
  return r;
}

TEST(LogSglangArgs, PrintedValuesBecomeArgsAndNoneStaysUnset) {
  RunRecord r = WithSettings({{"tp_size", "8", "user", ""},
                              {"mem_fraction_static", "0.88", "auto", ""},
                              {"page_size", "64", "auto", ""},
                              {"context_length", "None", "auto", ""},
                              {"kv_cache_dtype", "fp8_e4m3", "user", ""},
                              {"enable_dp_attention", "True", "user", ""}});
  SglangArgs a = SglangArgsOfRun(r);
  EXPECT_EQ(a.tp, 8);
  EXPECT_DOUBLE_EQ(*a.mem_fraction_static, 0.88);
  EXPECT_EQ(*a.page_size, 64);
  EXPECT_FALSE(a.context_length.has_value());
  EXPECT_EQ(a.kv_cache_dtype, "fp8_e4m3");
  EXPECT_TRUE(a.enable_dp_attention);
}

TEST(LogSglangArgs, SpeculativeDecodingsEngineSet48IsNotAUserLimit) {
  // server_args.py (#4908) prints max_running_requests=48 under EAGLE; the planner
  // applies that rule itself, so it must not arrive as a user value.
  RunRecord r = WithSettings({{"speculative_algorithm", "EAGLE", "user", ""},
                              {"max_running_requests", "48", "unknown", ""}});
  EXPECT_FALSE(SglangArgsOfRun(r).max_running_requests.has_value());
  r.settings[1].provenance = "user";
  EXPECT_EQ(*SglangArgsOfRun(r).max_running_requests, 48);
  r = WithSettings({{"max_running_requests", "32", "unknown", ""}});
  EXPECT_EQ(*SglangArgsOfRun(r).max_running_requests, 32);
}

}  // namespace
}  // namespace kvplan
