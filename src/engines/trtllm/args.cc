// trtllm-serve's flags (tensorrt_llm/commands/serve.py) and the
// --extra_llm_api_options YAML keys that size the KV cache (llmapi/llm_args.py).
// At a release data/flags/trtllm/ holds, the engine's whole parser is checked
// first (engines/trtllm/flags.h).

#include <algorithm>

#include <fmt/core.h>

#include "base/checked_math.h"
#include "base/input_file.h"
#include "engines/common/flag_parser.h"
#include "engines/trtllm/flags.h"
#include "engines/trtllm/stages.h"
#include "engines/trtllm/trtllm.h"
#include "engines/trtllm/yaml.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

int64_t YamlInt(const std::string& key, const std::string& v) {
  try {
    size_t used = 0;
    long long n = std::stoll(v, &used);
    if (used == v.size() && n > 0 && n <= kMaxInputCount) return n;
  } catch (const std::exception&) {
  }
  throw InputError(
      fmt::format("extra_llm_api_options: {} expects a positive integer, got '{}'", key, v));
}

double YamlFraction(const std::string& key, const std::string& v) {
  try {
    size_t used = 0;
    double d = std::stod(v, &used);
    // llm_args.py KvCacheConfig: free_gpu_memory_fraction ge=0, le=1.
    if (used == v.size() && d > 0 && d <= 1) return d;
  } catch (const std::exception&) {
  }
  throw InputError(
      fmt::format("extra_llm_api_options: {} expects a fraction in (0, 1], got '{}'", key, v));
}

bool YamlBool(const std::string& key, const std::string& v) {
  if (v == "true" || v == "True") return true;
  if (v == "false" || v == "False") return false;
  throw InputError(
      fmt::format("extra_llm_api_options: {} expects true or false, got '{}'", key, v));
}

int Size(const char* flag, const std::optional<int64_t>& v) {
  if (!v) return 1;
  if (*v < 1 || *v > 1024)
    throw InputError(fmt::format("{} must be between 1 and 1024, got {}", flag, *v));
  return static_cast<int>(*v);
}

}  // namespace

void ApplyTrtllmYaml(const std::string& text, const std::string& origin, TrtllmArgs* a) {
  for (const auto& [key, v] : ParseSimpleYaml(text, origin)) {
    if (key == "kv_cache_config.free_gpu_memory_fraction") {
      a->free_gpu_memory_fraction = YamlFraction(key, v);
    } else if (key == "kv_cache_config.max_tokens") {
      a->max_tokens = YamlInt(key, v);
    } else if (key == "kv_cache_config.dtype") {
      if (v != "auto" && v != "fp8" && v != "bfloat16" && v != "float16") {
        throw InputError(
            fmt::format("extra_llm_api_options: kv_cache_config.dtype '{}' is not "
                        "auto, fp8, bfloat16 or float16",
                        v));
      }
      a->kv_dtype = v;
    } else if (key == "kv_cache_config.tokens_per_block" || key == "tokens_per_block") {
      a->tokens_per_block = YamlInt(key, v);
    } else if (key == "max_num_tokens") {
      a->max_num_tokens = YamlInt(key, v);
    } else if (key == "max_batch_size") {
      a->max_batch_size = YamlInt(key, v);
    } else if (key == "max_seq_len") {
      a->max_seq_len = YamlInt(key, v);
    } else if (key == "tensor_parallel_size") {
      a->tp = static_cast<int>(YamlInt(key, v));
    } else if (key == "pipeline_parallel_size") {
      a->pp = static_cast<int>(YamlInt(key, v));
    } else if (key == "moe_expert_parallel_size") {
      a->ep = static_cast<int>(YamlInt(key, v));
    } else if (key == "enable_attention_dp") {
      a->enable_attention_dp = YamlBool(key, v);
    } else if (key == "backend") {
      a->backend = v;
    } else {
      a->ignored_yaml_keys.push_back(key);
    }
  }
}

namespace {

// The flags' parsed values, before they are range-checked into TrtllmArgs.
struct TrtllmFlagValues {
  std::optional<std::string> model_flag, model_pos, backend, extra;
  std::optional<int64_t> tp, pp, ep, mnt, mbs, msl;
  std::optional<double> frac;
};

// Registers the flags kvplan reads, under every name trtllm-serve has given
// them (serve.py: --tp_size became an alias of --tensor_parallel_size in 1.x;
// --config an alias of --extra_llm_api_options). Returns the names registered.
std::vector<std::string> RegisterTrtllmFlags(FlagParser* p, TrtllmFlagValues* v) {
  std::vector<std::string> names;
  auto add = [&](std::vector<std::string> n) {
    names.insert(names.end(), n.begin(), n.end());
    return n;
  };
  p->String(add({"--model"}), &v->model_flag);
  p->Positional("model", &v->model_pos);
  p->Int(add({"--tp_size", "--tensor_parallel_size"}), &v->tp);
  p->Int(add({"--pp_size", "--pipeline_parallel_size"}), &v->pp);
  p->Int(add({"--ep_size", "--moe_expert_parallel_size"}), &v->ep);
  p->Double(add({"--kv_cache_free_gpu_memory_fraction", "--free_gpu_memory_fraction"}), &v->frac);
  p->Int(add({"--max_num_tokens"}), &v->mnt);
  p->Int(add({"--max_batch_size"}), &v->mbs);
  p->Int(add({"--max_seq_len"}), &v->msl);
  p->String(add({"--backend"}), &v->backend);
  p->String(add({"--extra_llm_api_options", "--config"}), &v->extra);
  for (const char* f : {"--host", "--port", "--log_level", "--tokenizer", "--gpus_per_node",
                        "--cluster_size", "--num_postprocess_workers", "--reasoning_parser",
                        "--server_role", "--metadata_server_config_file", "--tool_parser"}) {
    p->Ignored(add({f}), true);
  }
  p->Ignored(add({"--trust_remote_code"}), false);
  return names;
}

// With the release's parser: every other option it has is accepted (the
// ones that change memory are warned about by CheckClickArgv's caller).
void RegisterTableOnlyFlags(FlagParser* p, const TrtllmFlagTable& table,
                            const std::vector<std::string>& registered) {
  for (const ClickOption& o : table.options) {
    std::vector<std::string> rest;
    for (const std::string& n : o.names) {
      if (std::find(registered.begin(), registered.end(), n) == registered.end()) {
        rest.push_back(n);
      }
    }
    if (!rest.empty()) p->Ignored(rest, o.takes_value);
  }
}

void CheckTrtllmRanges(const TrtllmFlagValues& v, TrtllmArgs* a) {
  a->tp = Size("--tp_size", v.tp);
  a->pp = Size("--pp_size", v.pp);
  a->ep = Size("--ep_size", v.ep);
  if (v.frac && (*v.frac <= 0 || *v.frac > 1)) {
    throw InputError(
        fmt::format("--kv_cache_free_gpu_memory_fraction must be in (0, 1], got {}", *v.frac));
  }
  for (auto [flag, n] : {std::pair{"--max_num_tokens", v.mnt},
                         {"--max_batch_size", v.mbs},
                         {"--max_seq_len", v.msl}}) {
    if (n && (*n < 1 || *n > kMaxInputCount)) {
      throw InputError(
          fmt::format("{} must be between 1 and {}, got {}", flag, kMaxInputCount, *n));
    }
  }
  a->max_num_tokens = v.mnt;
  a->max_batch_size = v.mbs;
  a->max_seq_len = v.msl;
  a->free_gpu_memory_fraction = v.frac;
  if (v.backend) {
    const std::string& b = *v.backend;
    if (b != "pytorch" && b != "tensorrt" && b != "trt" && b != "_autodeploy") {
      throw InputError(fmt::format("--backend '{}' is not pytorch, tensorrt or _autodeploy", b));
    }
    a->backend = b == "trt" ? "tensorrt" : b;
  }
}

// The LLM API class the YAML is validated against (llm.py: TorchLlmArgs for
// the PyTorch backend, TrtLlmArgs for TensorRT engines); "" for AutoDeploy,
// whose own args the table does not hold.
std::string LlmArgsClass(const std::map<std::string, std::string>& yaml, const TrtllmArgs& a,
                         const std::string& release) {
  std::string backend = a.backend;
  if (auto it = yaml.find("backend"); it != yaml.end()) backend = it->second;
  if (backend.empty()) backend = ParseTrtllmRelease(release).AtLeast(1, 0) ? "pytorch" : "tensorrt";
  if (backend == "pytorch") return "TorchLlmArgs";
  if (backend == "tensorrt" || backend == "trt") return "TrtLlmArgs";
  return "";
}

void ReadExtraOptions(const std::string& path, const TrtllmFlagTable* table,
                      const std::string& release, TrtllmArgs* a) {
  // Real option files are a few hundred bytes; 1 MiB bounds a wrong file.
  static const InputKind kOptionsFile{"--extra_llm_api_options file",
                                      "a YAML of `key: value` lines under 1 MiB", 1 << 20};
  const std::string yaml = ReadInputFile(path, kOptionsFile);
  a->extra_options_path = path;
  if (table != nullptr) {
    const auto keys = ParseSimpleYaml(yaml, path);
    const std::string cls = LlmArgsClass(keys, *a, release);
    if (!cls.empty()) CheckLlmApiKeys(*table, keys, cls, path);
  }
  // serve.py update_llm_args_with_extra_options: the YAML is merged over the
  // flags, so its values win.
  ApplyTrtllmYaml(yaml, path, a);
}

}  // namespace

TrtllmArgs ParseTrtllmArgs(const std::vector<std::string>& argv, const std::string& release) {
  std::vector<std::string> args;
  bool leading = true;
  for (const std::string& s : argv) {
    if (leading && (s == "trtllm-serve" || s == "serve")) continue;
    leading = false;
    args.push_back(s);
  }
  const TrtllmFlagTable* table = release.empty() ? nullptr : TrtllmFlagTableFor(release);
  std::vector<std::string> not_modelled;
  if (table != nullptr) not_modelled = CheckClickArgv(*table, args);
  TrtllmArgs a;
  FlagParser p("TensorRT-LLM");
  TrtllmFlagValues v;
  const std::vector<std::string> registered = RegisterTrtllmFlags(&p, &v);
  if (table != nullptr) RegisterTableOnlyFlags(&p, *table, registered);
  p.Parse(args);
  a.unknown_flags = p.unknown_flags();
  a.unknown_flags.insert(a.unknown_flags.end(), not_modelled.begin(), not_modelled.end());
  if (v.model_flag && v.model_pos && *v.model_flag != *v.model_pos) {
    throw InputError(fmt::format("TensorRT-LLM model given twice: '{}' and --model '{}'",
                                 *v.model_pos, *v.model_flag));
  }
  a.model = v.model_flag ? *v.model_flag : v.model_pos.value_or("");
  CheckTrtllmRanges(v, &a);
  if (v.extra) ReadExtraOptions(*v.extra, table, release, &a);
  return a;
}

}  // namespace kvplan
