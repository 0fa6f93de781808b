// vLLM's own flag names (vllm/engine/arg_utils.py EngineArgs.add_cli_args).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <utility>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "base/text.h"
#include "engines/common/flag_parser.h"
#include "engines/vllm/release.h"
#include "engines/vllm/vllm.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Bounds that keep the byte arithmetic far from int64 overflow.
constexpr int64_t kMaxTokens = kMaxInputCount;

void CheckBounds(const VllmArgs& a) {
  auto check = [](const char* flag, const std::optional<int64_t>& v) {
    if (v && *v > kMaxTokens) {
      throw InputError(fmt::format("{} {} is too large (at most {})", flag, *v, kMaxTokens));
    }
  };
  check("--max-model-len", a.max_model_len);
  check("--max-num-batched-tokens", a.max_num_batched_tokens);
  check("--max-num-seqs", a.max_num_seqs);
  if (a.kv_cache_memory_bytes && *a.kv_cache_memory_bytes > (int64_t{1} << 50)) {
    throw InputError(
        fmt::format("--kv-cache-memory {} is more than 1 PiB", *a.kv_cache_memory_bytes));
  }
  if (a.swap_space_gib > 1e6) {
    throw InputError(fmt::format("--swap-space {} GiB is too large", a.swap_space_gib));
  }
}

// vLLM accepts "32k"/"1M" style sizes for --max-model-len (arg_utils.py
// human_readable_int @v0.10); plain integers everywhere else.
int64_t ParseHumanInt(const std::string& flag, const std::string& text) {
  std::string s = text;
  int64_t mult = 1;
  if (!s.empty()) {
    char c = s.back();
    if (c == 'k') mult = 1000;
    if (c == 'K') mult = 1024;
    if (c == 'm') mult = 1000 * 1000;
    if (c == 'M') mult = 1024 * 1024;
    if (mult != 1) s.pop_back();
  }
  bool digits = !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
  if (s == "-1") return -1;
  if (!digits || s.size() > 12) {
    throw InputError(
        fmt::format("{} expects an integer such as 32768 or 32k, got '{}'", flag, text));
  }
  return std::stoll(s) * mult;
}

int CheckedSize(const char* flag, const std::optional<int64_t>& v) {
  if (!v) return 1;
  if (*v < 1 || *v > 1024) {
    throw InputError(fmt::format("{} must be between 1 and 1024, got {}", flag, *v));
  }
  return static_cast<int>(*v);
}

void CheckPositive(const char* flag, const std::optional<int64_t>& v) {
  if (v && *v < 1) throw InputError(fmt::format("{} must be a positive integer, got {}", flag, *v));
}

VllmSpeculative ParseSpeculativeConfig(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    throw InputError(fmt::format(
        "--speculative-config expects a JSON object such as "
        "'{{\"method\":\"eagle3\",\"model\":\"...\",\"num_speculative_tokens\":3}}', got '{}'",
        text));
  }
  VllmSpeculative s;
  if (j.contains("method")) {
    if (!j["method"].is_string())
      throw InputError("--speculative-config: \"method\" must be a string");
    s.method = j["method"].get<std::string>();
  }
  if (j.contains("model")) {
    if (!j["model"].is_string())
      throw InputError("--speculative-config: \"model\" must be a string");
    s.model = j["model"].get<std::string>();
  }
  if (j.contains("num_speculative_tokens")) {
    const auto& n = j["num_speculative_tokens"];
    if (!n.is_number_integer() || n.get<int64_t>() < 1 || n.get<int64_t>() > 64) {
      throw InputError(
          "--speculative-config: \"num_speculative_tokens\" must be an integer from 1 to 64");
    }
    s.num_speculative_tokens = n.get<int64_t>();
  }
  // vllm/config/speculative.py @v0.10: without a method, "ngram" names it by
  // model, anything else is a separate draft model.
  if (s.method.empty()) s.method = s.model == "ngram" ? "ngram" : "draft_model";
  static const std::set<std::string> kMethods = {
      "ngram", "eagle",        "eagle3",         "medusa",    "mlp_speculator", "draft_model",
      "mtp",   "deepseek_mtp", "qwen3_next_mtp", "ernie_mtp", "glm4_moe_mtp",   "suffix"};
  if (!kMethods.count(s.method)) {
    throw InputError(fmt::format(
        "--speculative-config: unknown method '{}' (expected ngram, eagle, eagle3, mtp, "
        "deepseek_mtp, draft_model, medusa or suffix)",
        s.method));
  }
  bool needs_model = s.method == "eagle" || s.method == "eagle3" || s.method == "draft_model" ||
                     s.method == "medusa" || s.method == "mlp_speculator";
  if (needs_model && s.model.empty()) {
    throw InputError(fmt::format("--speculative-config: method '{}' needs a \"model\"", s.method));
  }
  return s;
}

// The environment switches kvplan models are read: VLLM_USE_V1, VLLM_ALLOW_LONG_MAX_MODEL_LEN and
// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS (vllm/envs.py: "1" or "true", any case, is on), and at
// 0.17.x (`moe_chunking`) the fused-MoE chunking. The others are kept, as NAME=value, for the
// plan's warnings.
// A variable envs.py reads with int(): Python's int() of a decimal, sign allowed.
int64_t EnvInt(const std::string& name, const std::string& value) {
  int64_t out = 0;
  const char* begin = value.data() + (value.rfind('+', 0) == 0 ? 1 : 0);
  const char* end = value.data() + value.size();
  auto [p, ec] = std::from_chars(begin, end, out);
  if (ec != std::errc() || p != end || begin == end) {
    throw InputError(
        fmt::format("{} must be an integer (vLLM reads it with int()), got '{}'", name, value));
  }
  return out;
}

// 0.17.x, the one release line whose fused-MoE chunking the two MoE variables change
// (estimates.h VllmFusedMoeWorkspaceTokens); elsewhere they stay unread, and say so.
bool ReadsFusedMoeChunking(const std::string& release) {
  try {
    const VllmRelease r = ParseVllmRelease(release);
    return r.AtLeast(0, 17, 0) && !r.AtLeast(0, 18, 0);
  } catch (const InputError&) {
    return false;
  }
}

std::vector<std::string> ReadEnvironment(
    const std::vector<std::pair<std::string, std::string>>& env, bool moe_chunking,
    VllmArgs* args) {
  std::vector<std::string> unread;
  for (const auto& [name, value] : env) {
    if (moe_chunking && name == "VLLM_FUSED_MOE_CHUNK_SIZE") {
      // vllm/envs.py @v0.17.0: int(os.getenv("VLLM_FUSED_MOE_CHUNK_SIZE", str(16 * 1024))).
      args->fused_moe_chunk_size = EnvInt(name, value);
    } else if (moe_chunking && name == "VLLM_ENABLE_FUSED_MOE_ACTIVATION_CHUNKING") {
      // vllm/envs.py @v0.17.0: bool(int(os.getenv(..., "1"))).
      args->fused_moe_chunking = EnvInt(name, value) != 0;
    } else if (name == "VLLM_USE_V1") {
      // vllm/envs.py @v0.8.0: bool(int(os.getenv("VLLM_USE_V1", "1"))).
      if (value != "0" && value != "1") {
        throw InputError(fmt::format("VLLM_USE_V1 must be 0 or 1, got '{}'", value));
      }
      args->use_v1 = value == "1";
    } else if (name == "VLLM_ALLOW_LONG_MAX_MODEL_LEN") {
      args->allow_long_max_model_len = EnvSwitchOn(value);
    } else if (name == "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS") {
      // vllm/envs.py @v0.18.0: bool(int(value)), default "0" (from v0.20.0 "1", PR #38284): the
      // CUDA-graph estimate in the memory profile.
      args->estimate_cudagraphs = value != "0";
    } else {
      unread.push_back(name + "=" + value);
    }
  }
  return unread;
}

// The newest table older than `table` whose vllm/envs.py defines `name` ("" for none): a variable
// envs.py had and `table`'s no longer has was removed by then, not added since.
std::string LastTableDefining(const std::string& name, const FlagTable& table) {
  const VllmRelease limit = ParseVllmRelease(table.release);
  std::string out;
  VllmRelease best;
  for (const std::string& v : FlagTableReleases("vllm")) {
    const VllmRelease r = ParseVllmRelease(v);
    if (r.AtLeast(limit.major, limit.minor, limit.patch)) continue;
    const FlagTable* t = FindFlagTable("vllm", v);
    if (t == nullptr ||
        std::find(t->environment.begin(), t->environment.end(), name) == t->environment.end()) {
      continue;
    }
    if (out.empty() || r.AtLeast(best.major, best.minor, best.patch)) {
      out = v;
      best = r;
    }
  }
  return out;
}

// vllm/envs.py @v0.17.0 validate_environ (from EngineArgs.create_engine_config): a VLLM_* variable
// envs.py does not define is logged as unknown, or refused under --fail-on-environ-validation;
// before 0.17 it is silently ignored. Either way it has no effect, so at a release whose envs.py
// kvplan has (its table's `environment`) such a variable is dropped here, even one kvplan would
// read (VLLM_USE_V1 is gone from 0.12). Under an older release's table (`newer` is the release it
// stands in for) a name that table lacks may have been added since: kvplan still reads the ones
// it models, and warns about the rest.
std::vector<std::pair<std::string, std::string>> CheckEnvironmentNames(
    std::vector<std::pair<std::string, std::string>> env, const FlagTable* table,
    const std::string& newer, const std::string& release, bool hard_fail, VllmArgs* a) {
  if (table == nullptr || table->environment.empty()) return env;
  std::vector<std::pair<std::string, std::string>> kept;
  const VllmRelease r = ParseVllmRelease(release);
  const bool validates = r.AtLeast(0, 17, 0);
  for (auto& [name, value] : env) {
    const bool known = std::find(table->environment.begin(), table->environment.end(), name) !=
                       table->environment.end();
    if (!known && !newer.empty()) {
      if (const std::string had = LastTableDefining(name, *table); !had.empty()) {
        a->flag_notes.push_back(fmt::format(
            "{}={}: vllm/envs.py defines it up to vLLM {}'s table but not in {}'s, the nearest "
            "older one kvplan has, so it has no effect at vLLM {} unless a later release brought "
            "it back",
            name, value, had, table->release, newer));
        continue;
      }
    }
    if (known || !newer.empty()) {
      VllmArgs scratch;  // whether kvplan reads it, asked of the one reader
      if (!known &&
          ReadEnvironment({{name, value}}, ReadsFusedMoeChunking(release), &scratch).size() == 1) {
        a->flag_notes.push_back(fmt::format(
            "{}={}: not a variable of vLLM {}'s vllm/envs.py, the nearest older one kvplan has; "
            "vLLM {} may read it; ignored, so this plan does not show its effect",
            name, value, table->release, newer));
        continue;
      }
      kept.emplace_back(std::move(name), std::move(value));
      continue;
    }
    if (validates && hard_fail) {
      throw InputError(fmt::format(
          "vLLM {} refuses the launch: ValueError: Unknown vLLM environment variable detected: {} "
          "(--fail-on-environ-validation)",
          r.text, name));
    }
    a->flag_notes.push_back(
        validates ? fmt::format("Unknown vLLM environment variable detected: {} (vLLM {}'s "
                                "warning: vllm/envs.py has no such variable, so it has no effect)",
                                name, r.text)
                  : fmt::format("{}={}: vllm/envs.py of vLLM {} has no such variable, so it has no "
                                "effect (vLLM says so only from 0.17)",
                                name, value, r.text));
  }
  return kept;
}

// The launcher words ("python -m vllm.entrypoints.openai.api_server", "vllm serve") are skipped.
std::vector<std::string> StripLauncher(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  bool leading = true;
  for (const std::string& a : argv) {
    if (leading && (a == "python" || a == "python3" || a == "-m" || a == "vllm" || a == "serve" ||
                    a == "vllm.entrypoints.openai.api_server")) {
      continue;
    }
    leading = false;
    out.push_back(a);
  }
  return out;
}

const std::set<std::string>& KvCacheDtypes() {
  // vllm/config/cache.py @v0.10 CacheDType (plus bfloat16/float16 from 2026).
  static const std::set<std::string> k = {"auto",    "fp8",        "fp8_e4m3", "fp8_e5m2",
                                          "fp8_inc", "fp8_ds_mla", "bfloat16", "float16"};
  return k;
}

// The flags as given, before validation.
struct RawFlags {
  std::optional<std::string> model_flag, model_pos, max_model_len, kv_dtype, quant, spec, dtype,
      kv_mem, limit_mm, mm_encoder_tp;
  std::optional<int64_t> tp, pp, dp, max_num_seqs, mnbt, block_size, gpu_blocks_override;
  std::optional<double> util, swap;
  std::optional<bool> ep, eager, chunked, no_hybrid;
  std::optional<std::string> mamba_dtype, mamba_ssm_dtype;  // hybrid state (hybrid.h)
  std::optional<bool> prefix_caching;                       // hybrid state pages (hybrid.h)
  std::optional<bool> fail_env;  // --fail-on-environ-validation (CheckEnvironmentNames)
};

void DeclareModelledFlags(FlagParser& p, RawFlags* f) {
  p.String({"--model"}, &f->model_flag);
  p.Bool({"--fail-on-environ-validation"}, &f->fail_env);
  p.BoolFalse({"--no-fail-on-environ-validation"}, &f->fail_env);
  p.Positional("model", &f->model_pos);
  p.Int({"--tensor-parallel-size", "-tp"}, &f->tp);
  p.Int({"--pipeline-parallel-size", "-pp"}, &f->pp);
  p.Int({"--data-parallel-size", "-dp"}, &f->dp);
  p.Bool({"--enable-expert-parallel", "-ep"}, &f->ep);
  p.Double({"--gpu-memory-utilization"}, &f->util);
  p.String({"--max-model-len"}, &f->max_model_len);
  p.Int({"--max-num-seqs"}, &f->max_num_seqs);
  p.Int({"--max-num-batched-tokens"}, &f->mnbt);
  p.Int({"--block-size"}, &f->block_size);
  p.Int({"--num-gpu-blocks-override"}, &f->gpu_blocks_override);
  p.String({"--kv-cache-dtype"}, &f->kv_dtype);
  p.Bool({"--enforce-eager"}, &f->eager);
  p.String({"--kv-cache-memory", "--kv-cache-memory-bytes"}, &f->kv_mem);
  p.String({"--quantization", "-q"}, &f->quant);
  p.String({"--speculative-config"}, &f->spec);
  p.String({"--dtype"}, &f->dtype);
  p.String({"--limit-mm-per-prompt"}, &f->limit_mm);
  p.String({"--mm-encoder-tp-mode"}, &f->mm_encoder_tp);
  p.Double({"--swap-space"}, &f->swap);
  p.Bool({"--enable-chunked-prefill"}, &f->chunked);
  p.BoolFalse({"--no-enable-chunked-prefill"}, &f->chunked);
  p.Bool({"--disable-hybrid-kv-cache-manager"}, &f->no_hybrid);
  p.String({"--mamba-cache-dtype"}, &f->mamba_dtype);
  p.String({"--mamba-ssm-cache-dtype"}, &f->mamba_ssm_dtype);
  p.Bool({"--enable-prefix-caching"}, &f->prefix_caching);
  p.BoolFalse({"--no-enable-prefix-caching"}, &f->prefix_caching);
}

// Flags vLLM takes that do not change memory: accepted without a warning.
void DeclareIgnoredFlags(FlagParser& p) {
  for (const char* f : {"--host",
                        "--port",
                        "--served-model-name",
                        "--tokenizer",
                        "--revision",
                        "--seed",
                        "--kv-transfer-config",
                        "--tool-call-parser",
                        "--api-key",
                        "--load-format",
                        "--distributed-executor-backend",
                        "--reasoning-parser",
                        "--compilation-config",
                        "-O",
                        "--chat-template",
                        "--generation-config",
                        "--uvicorn-log-level",
                        "--download-dir",
                        "--hf-overrides",
                        "--override-generation-config",
                        "--cpu-offload-gb",
                        "--tokenizer-mode",
                        "--config"}) {
    p.Ignored({f}, true);
  }
  for (const char* f : {"--trust-remote-code", "--enable-auto-tool-choice",
                        "--disable-log-requests", "--disable-log-stats", "--enable-log-requests"}) {
    p.Ignored({f}, false);
  }
}

// The model, parallelism, utilization and token-limit flags.
void ApplySizeFlags(const RawFlags& f, VllmArgs* a) {
  if (f.model_flag && f.model_pos && *f.model_flag != *f.model_pos) {
    throw InputError(
        fmt::format("vLLM model given twice: '{}' and --model '{}'", *f.model_pos, *f.model_flag));
  }
  a->model = f.model_flag ? *f.model_flag : f.model_pos.value_or("");
  a->tp = CheckedSize("--tensor-parallel-size", f.tp);
  a->pp = CheckedSize("--pipeline-parallel-size", f.pp);
  a->dp = CheckedSize("--data-parallel-size", f.dp);
  a->enable_expert_parallel = f.ep.value_or(false);
  if (f.util && (*f.util <= 0 || *f.util > 1)) {
    throw InputError(fmt::format(
        "--gpu-memory-utilization must be in (0, 1], got {} (it is a fraction of the GPU)",
        *f.util));
  }
  a->gpu_memory_utilization = f.util;
  if (f.max_model_len) {
    int64_t v = ParseHumanInt("--max-model-len", *f.max_model_len);
    if (v == 0 || v < -1)
      throw InputError(fmt::format("--max-model-len must be positive, got {}", v));
    if (v > 0) a->max_model_len = v;
  }
  CheckPositive("--max-num-seqs", f.max_num_seqs);
  CheckPositive("--max-num-batched-tokens", f.mnbt);
  a->max_num_seqs = f.max_num_seqs;
  a->max_num_batched_tokens = f.mnbt;
  if (f.block_size && (*f.block_size < 1 || *f.block_size > 4096)) {
    throw InputError(fmt::format("--block-size must be between 1 and 4096, got {}", *f.block_size));
  }
  a->block_size = f.block_size;
  CheckPositive("--num-gpu-blocks-override", f.gpu_blocks_override);
  a->num_gpu_blocks_override = f.gpu_blocks_override;
}

// Hybrid models' state dtypes, as vllm/config/cache.py MambaDType @v0.14.1 spells them
// (float16 is new there; the flag tables refuse it at the releases without it).
void ApplyMambaDtypeFlags(const RawFlags& f, VllmArgs* a) {
  auto apply = [](const char* flag, const std::optional<std::string>& raw, std::string* out) {
    if (!raw) return;
    if (*raw != "auto" && *raw != "float32" && *raw != "float16") {
      throw InputError(fmt::format(
          "{} '{}' is not a vLLM mamba dtype (expected auto, float32 or float16)", flag, *raw));
    }
    *out = *raw;
  };
  apply("--mamba-cache-dtype", f.mamba_dtype, &a->mamba_cache_dtype);
  apply("--mamba-ssm-cache-dtype", f.mamba_ssm_dtype, &a->mamba_ssm_cache_dtype);
}

// The cache, quantization, speculative and engine-mode flags.
void ApplyCacheFlags(const RawFlags& f, VllmArgs* a) {
  if (f.kv_dtype) {
    if (!KvCacheDtypes().count(*f.kv_dtype)) {
      throw InputError(fmt::format(
          "--kv-cache-dtype '{}' is not a vLLM cache dtype (expected auto, fp8, fp8_e4m3, "
          "fp8_e5m2, fp8_ds_mla, bfloat16 or float16)",
          *f.kv_dtype));
    }
    a->kv_cache_dtype = *f.kv_dtype;
  }
  a->dtype = f.dtype.value_or("");
  if (f.dtype && *f.dtype == "float32" && a->kv_cache_dtype == "auto")
    a->kv_cache_dtype = "float32";
  ApplyMambaDtypeFlags(f, a);
  a->enable_prefix_caching = f.prefix_caching;
  a->enforce_eager = f.eager.value_or(false);
  if (f.kv_mem) {
    int64_t v = ParseHumanInt("--kv-cache-memory", *f.kv_mem);
    if (v <= 0)
      throw InputError(fmt::format("--kv-cache-memory must be positive bytes, got {}", *f.kv_mem));
    a->kv_cache_memory_bytes = v;
  }
  a->quantization = f.quant.value_or("");
  a->dtype = f.dtype.value_or("auto");
  a->limit_mm_per_prompt = f.limit_mm.value_or("");
  a->mm_encoder_tp_mode = f.mm_encoder_tp.value_or("weights");
  if (a->mm_encoder_tp_mode != "weights" && a->mm_encoder_tp_mode != "data") {
    throw InputError(fmt::format("--mm-encoder-tp-mode '{}' is not one of weights, data",
                                 a->mm_encoder_tp_mode));
  }
  if (f.spec) a->speculative = ParseSpeculativeConfig(*f.spec);
  if (f.swap) {
    if (*f.swap < 0)
      throw InputError(fmt::format("--swap-space must be >= 0 GiB, got {}", *f.swap));
    a->swap_space_gib = *f.swap;
  }
  a->enable_chunked_prefill = f.chunked;
  a->disable_hybrid_kv_cache_manager = f.no_hybrid.value_or(false);
}

// vllm/utils/argparse_utils.py FlexibleArgumentParser.parse_args @v0.20.1:
// where -O is no option of its own, "-O3", "-O=3" and "-O 3" are rewritten to
// --optimization-level before argparse sees them.
std::vector<std::string> RewriteOptimizationLevel(std::vector<std::string> args,
                                                  const FlagTable* table) {
  if (table == nullptr || table->Resolve("-O") != nullptr ||
      table->Resolve("--optimization-level") == nullptr) {
    return args;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("-O", 0) == 0 && arg.size() > 2) {
      out.push_back("--optimization-level");
      out.push_back(arg[2] == '=' ? arg.substr(3) : arg.substr(2));
    } else if (arg == "-O" && i + 1 < args.size() && args[i + 1].size() == 1 &&
               args[i + 1][0] >= '0' && args[i + 1][0] <= '3') {
      out.push_back("--optimization-level");
    } else {
      out.push_back(arg);
    }
  }
  return out;
}

}  // namespace

VllmArgs ParseVllmArgs(const std::vector<std::string>& argv, const std::string& release) {
  VllmArgs a;
  std::vector<std::string> args = argv;
  std::vector<std::pair<std::string, std::string>> env = TakeEnvironment(&args, "VLLM_");
  args = StripLauncher(args);
  FlagParser p("vLLM");
  // vllm/utils FlexibleArgumentParser.parse_args @v0.6.0: --a_b is read as --a-b.
  std::string older_note, newer;
  const FlagTable* table = VllmFlagTableFor(release, &older_note);
  if (older_note.empty()) {
    p.UseEngineParser(table, /*underscores=*/true);
  } else {
    newer = ParseVllmRelease(release).text;
    p.UseOlderEngineParser(table, /*underscores=*/true, newer);
    a.flag_notes.push_back(older_note);
  }
  args = RewriteOptimizationLevel(std::move(args), table);
  RawFlags f;
  DeclareModelledFlags(p, &f);
  DeclareIgnoredFlags(p);
  p.Parse(args);
  a.flag_notes.insert(a.flag_notes.end(), p.warnings().begin(), p.warnings().end());
  env =
      CheckEnvironmentNames(std::move(env), table, newer, release, f.fail_env.value_or(false), &a);
  const std::vector<std::string> unread_env =
      ReadEnvironment(env, ReadsFusedMoeChunking(release), &a);
  a.user_flags = p.given();
  a.unknown_flags = p.unknown_flags();
  a.unknown_flags.insert(a.unknown_flags.end(), unread_env.begin(), unread_env.end());
  ApplySizeFlags(f, &a);
  ApplyCacheFlags(f, &a);
  CheckBounds(a);
  return a;
}

}  // namespace kvplan
