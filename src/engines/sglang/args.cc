// SGLang's own flags, as python -m sglang.launch_server takes them
// (python/sglang/srt/server_args.py add_cli_args).
#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/text.h"
#include "engines/common/flag_parser.h"
#include "engines/common/suggested_flags.h"
#include "engines/sglang/attention_backend.h"
#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

int SmallInt(const char* flag, const std::optional<int64_t>& v, int fallback) {
  if (!v) return fallback;
  if (*v < 1 || *v > 4096) {
    throw InputError(fmt::format("{} must be between 1 and 4096, got {}", flag, *v));
  }
  return static_cast<int>(*v);
}

// The flags whose raw values need resolving after parsing.
struct RawFlags {
  std::optional<std::string> model_path, kv_dtype, quantization, dtype, spec_algo, draft_path,
      backend;
  std::optional<int64_t> tp, pp, dp, ep;
  std::optional<bool> dp_attention, dp_lm_head, dp_encoder, disable_graph, piecewise_on,
      piecewise_off;
  std::optional<std::string> mamba_ssm_dtype;
  std::optional<bool> disable_radix_cache;
  std::optional<int64_t> graph_max_bs_decode;  // --cuda-graph-max-bs-decode, from 0.5.14
  std::optional<std::string> graph_config;     // --cuda-graph-config JSON, from 0.5.14
  // --disable-prefill-cuda-graph and --cuda-graph-backend-prefill, from 0.5.14
  std::optional<bool> prefill_graph_off;
  std::optional<std::string> prefill_backend;
};

void AddMemoryFlags(FlagParser& p, RawFlags& f, SglangArgs& a) {
  p.String({"--model-path", "--model"}, &f.model_path);
  p.Int({"--tp-size", "--tp", "--tensor-parallel-size"}, &f.tp);
  p.Int({"--pp-size", "--pp", "--pipeline-parallel-size"}, &f.pp);
  p.Int({"--dp-size", "--dp", "--data-parallel-size"}, &f.dp);
  p.Int({"--ep-size", "--ep", "--expert-parallel-size"}, &f.ep);
  p.Bool({"--enable-dp-attention"}, &f.dp_attention);
  p.Bool({"--enable-dp-lm-head"}, &f.dp_lm_head);
  p.Bool({"--mm-enable-dp-encoder"}, &f.dp_encoder);
  p.Double({"--mem-fraction-static"}, &a.mem_fraction_static);
  p.String({"--kv-cache-dtype"}, &f.kv_dtype);
  p.Int({"--page-size"}, &a.page_size);
  p.Int({"--context-length"}, &a.context_length);
  p.Int({"--max-running-requests"}, &a.max_running_requests);
  p.Int({"--max-total-tokens"}, &a.max_total_tokens);
  p.Int({"--chunked-prefill-size"}, &a.chunked_prefill_size);
  p.Int({"--max-prefill-tokens"}, &a.max_prefill_tokens);
  p.Int({"--cuda-graph-max-bs"}, &a.cuda_graph_max_bs);
  p.Int({"--cuda-graph-max-bs-decode"}, &f.graph_max_bs_decode);
  p.String({"--cuda-graph-config"}, &f.graph_config);
  p.Bool({"--disable-cuda-graph"}, &f.disable_graph);
  p.Bool({"--enable-piecewise-cuda-graph"}, &f.piecewise_on);
  p.Bool({"--disable-piecewise-cuda-graph"}, &f.piecewise_off);
  p.Bool({"--disable-prefill-cuda-graph"}, &f.prefill_graph_off);
  p.String({"--cuda-graph-backend-prefill"}, &f.prefill_backend);
  p.String({"--quantization"}, &f.quantization);
  p.String({"--dtype"}, &f.dtype);
  p.String({"--speculative-algorithm", "--speculative-algo"}, &f.spec_algo);
  p.String({"--speculative-draft-model-path", "--speculative-draft-model"}, &f.draft_path);
  p.Int({"--speculative-num-steps"}, &a.speculative_num_steps);
  p.Int({"--speculative-eagle-topk"}, &a.speculative_eagle_topk);
  p.Int({"--speculative-num-draft-tokens"}, &a.speculative_num_draft_tokens);
  p.Double({"--swa-full-tokens-ratio"}, &a.swa_full_tokens_ratio);
  p.String({"--attention-backend"}, &f.backend);
  p.Int({"--max-mamba-cache-size"}, &a.max_mamba_cache_size);
  p.Double({"--mamba-full-memory-ratio"}, &a.mamba_full_memory_ratio);
  p.String({"--mamba-ssm-dtype"}, &f.mamba_ssm_dtype);
  p.Bool({"--disable-radix-cache"}, &f.disable_radix_cache);
}

// Accepted, and irrelevant to memory accounting.
void AddIgnoredFlags(FlagParser& p) {
  for (const char* f : {"--host",
                        "--port",
                        "--served-model-name",
                        "--tokenizer-path",
                        "--log-level",
                        "--revision",
                        "--load-format",
                        "--tool-call-parser",
                        "--reasoning-parser",
                        "--chat-template",
                        "--api-key",
                        "--random-seed",
                        "--grammar-backend",
                        "--schedule-policy",
                        "--dist-init-addr",
                        "--nnodes",
                        "--node-rank",
                        "--moe-runner-backend",
                        "--moe-a2a-backend",
                        "--sampling-backend",
                        "--stream-interval",
                        "--watchdog-timeout",
                        "--download-dir",
                        "--base-gpu-id",
                        "--schedule-conservativeness"}) {
    p.Ignored({f}, true);
  }
  for (const char* f :
       {"--trust-remote-code", "--enable-metrics", "--enable-torch-compile", "--skip-server-warmup",
        "--log-requests", "--enable-mixed-chunk", "--disable-custom-all-reduce",
        "--enable-cache-report", "--disable-overlap-schedule"}) {
    p.Ignored({f}, false);
  }
}

// Fills `a` from the raw values and refuses what SGLang's argparse refuses.
// --cuda-graph-config's decode max_bs, which wins over --cuda-graph-max-bs(-decode)
// (server_args.py @v0.5.14 _parse_cuda_graph_config: explicit JSON has the highest precedence);
// its other keys are a note that the plan does not show them. Malformed JSON is refused in
// model_executor/cuda_graph_config.py parse_cuda_graph_config_arg's words.
void ReadCudaGraphConfig(const std::string& text, SglangArgs& a) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    throw InputError("argument --cuda-graph-config: --cuda-graph-config must be JSON");
  }
  if (!j.is_object()) {
    throw InputError("argument --cuda-graph-config: --cuda-graph-config must be a JSON object");
  }
  std::string unread;
  for (const auto& [phase, settings] : j.items()) {
    if (phase != "decode" && phase != "prefill") {
      throw InputError(fmt::format(
          "argument --cuda-graph-config: --cuda-graph-config: unknown phase '{}', expected decode "
          "or prefill",
          phase));
    }
    if (!settings.is_object()) {
      throw InputError(fmt::format(
          "argument --cuda-graph-config: --cuda-graph-config['{}'] must be a JSON object", phase));
    }
    for (const auto& [key, value] : settings.items()) {
      if (phase == "decode" && key == "max_bs" && value.is_number_integer()) {
        a.cuda_graph_max_bs = value.get<int64_t>();
      } else {
        unread += (unread.empty() ? "" : ", ") + phase + "." + key;
      }
    }
  }
  if (!unread.empty()) {
    a.flag_notes.push_back(fmt::format(
        "--cuda-graph-config: kvplan reads only decode.max_bs; {} ignored, so this plan does not "
        "show what they change (the graphs captured and their memory)",
        unread));
  }
}

// The prefill phase's graphs from 0.5.14 (server_args.py @v0.5.14 _parse_cuda_graph_config):
// --disable-prefill-cuda-graph and --cuda-graph-backend-prefill=disabled turn them off, the
// setting --disable-piecewise-cuda-graph is now the deprecated alias of (add_cli_args), and the
// backend flag, given, wins. argparse's choices are cuda_graph_config.py's Backend.ALL; a backend
// other than disabled (tc_piecewise is the default, breakable another capture) is not modelled.
void ResolvePrefillGraphFlags(const RawFlags& f, SglangArgs& a) {
  if (f.prefill_graph_off.value_or(false)) a.piecewise_cuda_graph = false;
  if (!f.prefill_backend) return;
  static const EngineFlag kBackend = [] {
    EngineFlag e;
    e.names = {"--cuda-graph-backend-prefill"};
    e.choices = {"full", "breakable", "tc_piecewise", "disabled"};
    return e;
  }();
  const std::string& b = *f.prefill_backend;
  if (std::find(kBackend.choices.begin(), kBackend.choices.end(), b) == kBackend.choices.end()) {
    throw InputError("launch_server.py: error: " + InvalidChoiceError(kBackend, b));
  }
  if (b == "disabled") {
    a.piecewise_cuda_graph = false;
  } else {
    a.flag_notes.push_back(fmt::format(
        "--cuda-graph-backend-prefill {}: kvplan models the prefill graphs SGLang captures by "
        "default (tc_piecewise) or none (disabled); the plan counts the default's memory",
        b));
  }
}

void ResolveRawFlags(const RawFlags& f, SglangArgs& a) {
  a.model_path = f.model_path.value_or("");
  a.tp = SmallInt("--tp-size", f.tp, 1);
  a.pp = SmallInt("--pp-size", f.pp, 1);
  a.dp = SmallInt("--dp-size", f.dp, 1);
  a.ep = SmallInt("--ep-size", f.ep, 1);
  a.enable_dp_attention = f.dp_attention.value_or(false);
  a.enable_dp_lm_head = f.dp_lm_head.value_or(false);
  a.mm_enable_dp_encoder = f.dp_encoder.value_or(false);
  a.kv_cache_dtype = f.kv_dtype.value_or("auto");
  a.quantization = f.quantization.value_or("");
  a.dtype = f.dtype.value_or("auto");
  a.speculative_algorithm = f.spec_algo.value_or("");
  a.speculative_draft_model_path = f.draft_path.value_or("");
  a.attention_backend = f.backend.value_or("");
  // server_args.py: --attention-backend is an argparse `choices` flag.
  CheckSglangAttentionBackend(a.attention_backend);
  a.disable_cuda_graph = f.disable_graph.value_or(false);
  a.disable_radix_cache = f.disable_radix_cache.value_or(false);
  a.mamba_ssm_dtype = f.mamba_ssm_dtype.value_or("");
  // configs/mamba_utils.py mamba2_state_dtype: the SSM state dtypes the engine maps.
  if (!a.mamba_ssm_dtype.empty() && a.mamba_ssm_dtype != "float32" &&
      a.mamba_ssm_dtype != "bfloat16" && a.mamba_ssm_dtype != "float16") {
    throw InputError(fmt::format(
        "--mamba-ssm-dtype: invalid choice '{}' (choose from 'float32', 'bfloat16', 'float16')",
        a.mamba_ssm_dtype));
  }
  if (f.piecewise_on && f.piecewise_off) {
    throw InputError(
        "--enable-piecewise-cuda-graph and --disable-piecewise-cuda-graph contradict each other");
  }
  if (f.piecewise_on) a.piecewise_cuda_graph = true;
  if (f.piecewise_off) a.piecewise_cuda_graph = false;
  // server_args.py @v0.5.14 add_cli_args: --cuda-graph-max-bs is a DeprecatedAliasStoreAction
  // with dest cuda_graph_max_bs_decode, so both set the decode graphs' largest batch
  // (_parse_cuda_graph_config: cuda_graph_config[decode].max_bs), the value kvplan reads as
  // cuda_graph_max_bs. argparse keeps the last of two; kvplan asks for one.
  if (f.graph_max_bs_decode) {
    if (a.cuda_graph_max_bs && *a.cuda_graph_max_bs != *f.graph_max_bs_decode) {
      throw InputError(fmt::format(
          "--cuda-graph-max-bs {} and --cuda-graph-max-bs-decode {}: one setting in SGLang (the "
          "first is the second's deprecated alias from 0.5.14), so SGLang keeps whichever comes "
          "last; give one",
          *a.cuda_graph_max_bs, *f.graph_max_bs_decode));
    }
    a.cuda_graph_max_bs = f.graph_max_bs_decode;
  }
  if (f.graph_config) ReadCudaGraphConfig(*f.graph_config, a);
  if (a.disable_cuda_graph && a.cuda_graph_max_bs) {
    throw InputError("--disable-cuda-graph and --cuda-graph-max-bs contradict each other");
  }
}

// SGLang's own parser at `release` when data/flags/sglang/ has it, else the nearest older one
// (then *older_note says so in one line and *canonical is the release's name). A release kvplan
// cannot read is left to the planner to refuse in its own words.
const FlagTable* SglangFlagTable(const std::string& release, std::string* older_note,
                                 std::string* canonical) {
  int64_t key = 0;
  try {
    SglangEraFor(release, canonical, &key);
  } catch (const InputError&) {
    return nullptr;
  }
  if (const FlagTable* t = FindFlagTable("sglang", *canonical)) return t;
  const FlagTable* t =
      NearestOlderFlagTable("sglang", key, [](const std::string& v) -> std::optional<int64_t> {
        std::string name;
        int64_t k = 0;
        SglangEraFor(v, &name, &k);
        return k;
      });
  if (t != nullptr) *older_note = OlderFlagTableNote("SGLang", *canonical, *t);
  return t;
}

// The SGLANG_* names SGLang's source reads at the table's release (scripts/extract-flags.py
// sglang_environment: python/sglang/srt/environ.py's Envs fields and every "SGLANG_..." literal in
// python/sglang). SGLang checks no name, so at the table's own release one outside them is read
// nowhere and has no effect; under an older table (`newer` names the release) it may be new, so it
// stays the plan's "not read" warning. Returns the variables left for that warning.
std::vector<std::string> CheckEnvironmentNames(const std::vector<std::string>& env,
                                               const FlagTable* table, const std::string& release,
                                               const std::string& newer,
                                               std::vector<std::string>* notes) {
  if (table == nullptr || table->environment.empty()) return env;
  std::vector<std::string> kept;
  for (const std::string& kv : env) {
    const std::string name = kv.substr(0, kv.find('='));
    if (std::find(table->environment.begin(), table->environment.end(), name) !=
        table->environment.end()) {
      kept.push_back(kv);
    } else if (newer.empty()) {
      notes->push_back(fmt::format(
          "{}: SGLang {} reads no such variable (python/sglang/srt/environ.py does not define it "
          "and no other file of python/sglang names it), so it has no effect",
          kv, release));
    } else {
      notes->push_back(fmt::format(
          "{}: not a variable SGLang {}'s source reads, the nearest older one kvplan has; SGLang "
          "{} may read it; ignored, so this plan does not show its effect",
          kv, table->release, newer));
    }
  }
  return kept;
}

// SGLang's warning for each given flag that `table` registers with a
// Deprecated{StoreTrue,StoreConst,AliasStore}Action (python/sglang/srt/server_args.py from
// v0.5.10, arg_groups/argparse_actions.py from v0.5.13; the same words to v0.5.18): "'--x' is
// deprecated and will be removed in a future release. Use '--y' instead." Each still sets what it
// did, so the plan reads it as before. DeprecatedAction is not warned here: at v0.5.3 it raises
// its help text, from v0.5.8 it warns in other words, and it stores nothing.
void AddDeprecationWarnings(const FlagParser& p, const FlagTable* table,
                            std::vector<std::string>* notes) {
  if (table == nullptr) return;
  // The flags kvplan reads, then those it skips (--cuda-graph-bs at 0.5.14: SGLang warns of both).
  std::vector<std::string> given = p.given();
  given.insert(given.end(), p.unknown_flags().begin(), p.unknown_flags().end());
  for (const std::string& name : given) {
    const EngineFlag* f = table->Resolve(name);
    if (f == nullptr || f->deprecated.empty() || f->deprecated == "DeprecatedAction") continue;
    const std::string use =
        f->new_flag.empty() ? "" : fmt::format(" Use '{}' instead.", f->new_flag);
    notes->push_back(fmt::format(
        "'{}' is deprecated and will be removed in a future release.{} (SGLang's warning; the "
        "same setting)",
        name, use));
  }
}

}  // namespace

SglangArgs ParseSglangArgs(const std::vector<std::string>& argv_in, const std::string& release) {
  FlagParser p("SGLang");
  // python/sglang/srt/server_args.py prepare_server_args: a plain argparse
  // parser, so --a_b is not --a-b.
  std::string older_note, canonical;
  const FlagTable* table = SglangFlagTable(release, &older_note, &canonical);
  if (older_note.empty()) {
    p.UseEngineParser(table, /*underscores=*/false);
  } else {
    p.UseOlderEngineParser(table, /*underscores=*/false, canonical);
  }
  // attention_backend.cc CheckSglangAttentionBackend: perf and tune refuse
  // with the same words.
  p.KeepOwnChoiceCheck("--attention-backend");
  RawFlags f;
  SglangArgs a;
  AddMemoryFlags(p, f, a);
  AddIgnoredFlags(p);
  std::vector<std::string> argv = argv_in;
  std::vector<std::string> unread_env;
  for (const auto& [name, value] : TakeEnvironment(&argv, "SGLANG_")) {
    // python/sglang/srt/environ.py EnvBool: "1" or "true" (any case) is on.
    if (name == "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN") {
      a.allow_overwrite_longer_context_len = EnvSwitchOn(value);
    } else {
      unread_env.push_back(name + "=" + value);
    }
  }
  p.Parse(argv);
  ResolveRawFlags(f, a);
  a.unknown_flags = p.unknown_flags();
  if (!older_note.empty()) a.flag_notes.push_back(older_note);
  a.flag_notes.insert(a.flag_notes.end(), p.warnings().begin(), p.warnings().end());
  ResolvePrefillGraphFlags(f, a);
  AddDeprecationWarnings(p, table, &a.flag_notes);
  unread_env = CheckEnvironmentNames(unread_env, table, canonical,
                                     older_note.empty() ? "" : canonical, &a.flag_notes);
  a.unknown_flags.insert(a.unknown_flags.end(), unread_env.begin(), unread_env.end());
  return a;
}

std::string SglangFlagToWrite(const std::string& release, std::string_view flag) {
  std::string older_note, canonical;
  return FlagToWrite("sglang", SglangFlagTable(release, &older_note, &canonical), flag);
}

std::pair<std::string, std::string> SglangPrefillGraphSetting(const std::string& release, bool on) {
  std::string older_note, canonical;
  const FlagTable* t = SglangFlagTable(release, &older_note, &canonical);
  const bool has_switch =
      t == nullptr || std::none_of(t->flags.begin(), t->flags.end(), [](const EngineFlag& f) {
        return std::find(f.names.begin(), f.names.end(), "--cuda-graph-backend-prefill") !=
               f.names.end();
      });
  if (has_switch) return {"--enable-piecewise-cuda-graph", on ? "on" : "off"};
  // python/sglang/srt/model_executor/cuda_graph_config.py @v0.5.14 CudaGraphConfig: the prefill
  // phase's default backend is tc_piecewise.
  return {"--cuda-graph-backend-prefill", on ? "tc_piecewise" : "disabled"};
}

}  // namespace kvplan
