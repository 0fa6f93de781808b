// trtllm-serve's flags (tensorrt_llm/commands/serve.py) and the
// --extra_llm_api_options YAML keys that size the KV cache (llmapi/llm_args.py).

#include <fmt/core.h>

#include "base/checked_math.h"
#include "base/input_file.h"
#include "engines/common/flag_parser.h"
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

TrtllmArgs ParseTrtllmArgs(const std::vector<std::string>& argv) {
  std::vector<std::string> args;
  bool leading = true;
  for (const std::string& s : argv) {
    if (leading && (s == "trtllm-serve" || s == "serve")) continue;
    leading = false;
    args.push_back(s);
  }
  TrtllmArgs a;
  FlagParser p("TensorRT-LLM");
  std::optional<std::string> model_flag, model_pos, backend, extra;
  std::optional<int64_t> tp, pp, ep, mnt, mbs, msl;
  std::optional<double> frac;
  p.String({"--model"}, &model_flag);
  p.Positional("model", &model_pos);
  p.Int({"--tp_size"}, &tp);
  p.Int({"--pp_size"}, &pp);
  p.Int({"--ep_size"}, &ep);
  p.Double({"--kv_cache_free_gpu_memory_fraction"}, &frac);
  p.Int({"--max_num_tokens"}, &mnt);
  p.Int({"--max_batch_size"}, &mbs);
  p.Int({"--max_seq_len"}, &msl);
  p.String({"--backend"}, &backend);
  p.String({"--extra_llm_api_options", "--config"}, &extra);
  for (const char* f : {"--host", "--port", "--log_level", "--tokenizer", "--gpus_per_node",
                        "--cluster_size", "--num_postprocess_workers", "--reasoning_parser",
                        "--server_role", "--metadata_server_config_file", "--tool_parser"}) {
    p.Ignored({f}, true);
  }
  p.Ignored({"--trust_remote_code"}, false);
  p.Parse(args);
  a.unknown_flags = p.unknown_flags();
  if (model_flag && model_pos && *model_flag != *model_pos) {
    throw InputError(fmt::format("TensorRT-LLM model given twice: '{}' and --model '{}'",
                                 *model_pos, *model_flag));
  }
  a.model = model_flag ? *model_flag : model_pos.value_or("");
  a.tp = Size("--tp_size", tp);
  a.pp = Size("--pp_size", pp);
  a.ep = Size("--ep_size", ep);
  if (frac && (*frac <= 0 || *frac > 1)) {
    throw InputError(
        fmt::format("--kv_cache_free_gpu_memory_fraction must be in (0, 1], got {}", *frac));
  }
  for (auto [flag, v] :
       {std::pair{"--max_num_tokens", mnt}, {"--max_batch_size", mbs}, {"--max_seq_len", msl}}) {
    if (v && (*v < 1 || *v > kMaxInputCount)) {
      throw InputError(
          fmt::format("{} must be between 1 and {}, got {}", flag, kMaxInputCount, *v));
    }
  }
  a.max_num_tokens = mnt;
  a.max_batch_size = mbs;
  a.max_seq_len = msl;
  a.free_gpu_memory_fraction = frac;
  if (backend) {
    if (*backend != "pytorch" && *backend != "tensorrt" && *backend != "trt" &&
        *backend != "_autodeploy") {
      throw InputError(
          fmt::format("--backend '{}' is not pytorch, tensorrt or _autodeploy", *backend));
    }
    a.backend = *backend == "trt" ? "tensorrt" : *backend;
  }
  if (extra) {
    // Real option files are a few hundred bytes; 1 MiB bounds a wrong file.
    static const InputKind kOptionsFile{"--extra_llm_api_options file",
                                        "a YAML of `key: value` lines under 1 MiB", 1 << 20};
    const std::string yaml = ReadInputFile(*extra, kOptionsFile);
    a.extra_options_path = *extra;
    // serve.py update_llm_args_with_extra_options: the YAML is merged over the
    // flags, so its values win.
    ApplyTrtllmYaml(yaml, *extra, &a);
  }
  return a;
}

}  // namespace kvplan
