#include "logs/provenance.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <optional>
#include <span>

#include <fmt/core.h>

namespace kvplan {
namespace {

std::string DefaultRuleName(std::string_view engine, std::string_view key) {
  if (engine == "sglang") {
    if (key == "mem_fraction_static") {
      return "SGLang's automatic mem_fraction_static (server_args.py: reserve by GPU memory, "
             "TP, chunked prefill and CUDA-graph batch size)";
    }
    if (key == "chunked_prefill_size" || key == "cuda_graph_max_bs") {
      return "SGLang's GPU-memory bucket rule (server_args.py)";
    }
    if (key == "max_running_requests" || key == "max_total_tokens") {
      return "SGLang sizes it from the KV pool (None = derived at start-up)";
    }
    return "SGLang's default";
  }
  if (key == "gpu_memory_utilization") return "vLLM's default (0.9)";
  if (key == "max_model_len") return "vLLM's default (the model's max_position_embeddings)";
  return "vLLM's default";
}

// The flags of the run's launch command as its engine reads them: vLLM's FlexibleArgumentParser
// takes "--max_model_len" as "--max-model-len" (vllm/utils.py parse_args, v0.4 on); SGLang's
// argparse does not.
std::vector<std::string> LaunchFlags(const RunRecord& run) {
  std::vector<std::string> flags = CommandFlags(run.launch_command);
  if (run.engine != "vllm") return flags;
  for (std::string& f : flags) {
    if (f.starts_with("--")) std::replace(f.begin() + 2, f.end(), '_', '-');
  }
  return flags;
}

void FromCommandLine(RunRecord* run) {
  std::vector<std::string> flags = LaunchFlags(*run);
  for (LoggedSetting& s : run->settings) {
    std::vector<std::string> spellings = FlagSpellings(run->engine, s.key);
    auto hit = std::find_first_of(flags.begin(), flags.end(), spellings.begin(), spellings.end());
    if (hit != flags.end()) {
      s.provenance = "user";
      s.rule = "set on the launch command line (" + *hit + ")";
    } else {
      s.provenance = "auto";
      s.rule = DefaultRuleName(run->engine, s.key) + "; not on the launch command line";
    }
  }
}

// Why a layout read from rank tags has the size it has. Every rank below the largest seen:
// the size. Some missing (an excerpt, or lines of some ranks only): a lower bound, and the
// reader is told so, with the flag that names the size.
std::string RankTagRule(std::string_view tag, int size, uint64_t seen, std::string_view key) {
  int shown = std::popcount(seen);
  std::string flag = "--" + std::string(key);
  std::replace(flag.begin(), flag.end(), '_', '-');
  if (size > 64 || shown >= size) {
    return fmt::format(
        "derived from rank tags (largest {} rank seen is {}); the log prints no "
        "server arguments for it",
        tag, size - 1);
  }
  return fmt::format(
      "at least: the largest {} rank seen is {}, but the log shows {} of ranks "
      "0-{}, so it may be larger; the log prints no server arguments ({} names it)",
      tag, size - 1, shown, size - 1, flag);
}

// A log that prints no server_args still names its layout in the rank tags of
// its lines: the largest TP, DP and PP rank + 1. Kept as a derived setting so
// a re-plan uses it and a reader sees where it came from.
void LayoutFromRankTags(RunRecord* run) {
  bool sglang = run->engine == "sglang";
  if (!sglang && run->engine != "vllm") return;
  struct Axis {
    std::string_view sglang_key, vllm_key, tag;
    int size;
    uint64_t seen;
  };
  const Axis axes[] = {
      {"tp_size", "tensor_parallel_size", "TP", run->tp_from_ranks, run->tp_ranks_seen},
      {"dp_size", "data_parallel_size", "DP", run->dp_from_ranks, run->dp_ranks_seen},
      {"pp_size", "pipeline_parallel_size", "PP", run->pp_from_ranks, run->pp_ranks_seen},
  };
  for (const Axis& a : axes) {
    std::string_view key = sglang ? a.sglang_key : a.vllm_key;
    if (a.size < 2 || run->FindSetting(key) != nullptr) continue;
    run->settings.push_back({std::string(key), fmt::format("{}", a.size), "derived",
                             RankTagRule(a.tag, a.size, a.seen, key)});
  }
}

// vLLM's engine config line prints the resolved layout (read into config_* figures by
// vllm_lines.cc): a log without non-default args or a launch command for it still says its TP
// and PP. Weaker evidence than the command line, stronger than rank tags.
void LayoutFromEngineConfig(RunRecord* run) {
  if (run->engine != "vllm") return;
  static constexpr std::string_view kKeys[] = {"tensor_parallel_size", "pipeline_parallel_size",
                                               "data_parallel_size"};
  for (std::string_view key : kKeys) {
    std::optional<double> v = run->Figure("config_" + std::string(key));
    if (!v || run->FindSetting(key) != nullptr) continue;
    run->settings.push_back({std::string(key), fmt::format("{:g}", *v), "unknown",
                             "printed in vLLM's engine config line (the resolved value; the log "
                             "holds no launch command or non-default args for it)"});
  }
}

// The fraction SGLang's memory error names ("Current value: ...mem_fraction_static=0.2", "under
// --mem-fraction-static=0.88", read as error_mem_fraction_static by sglang_lines.cc) is the
// run's setting when the log prints no server_args; explain compares it with the default rule.
void FractionFromErrorMessage(RunRecord* run) {
  std::optional<double> named = run->Figure("error_mem_fraction_static");
  if (run->engine != "sglang" || !named || run->FindSetting("mem_fraction_static") != nullptr) {
    return;
  }
  LoggedSetting s{"mem_fraction_static", fmt::format("{:g}", *named), "unknown",
                  "named by SGLang's error message (the log prints no server_args)"};
  if (!run->launch_command.empty()) {
    std::vector<std::string> flags = LaunchFlags(*run);
    bool on_command = std::find(flags.begin(), flags.end(), "--mem-fraction-static") != flags.end();
    s.provenance = on_command ? "user" : "auto";
    s.rule = on_command ? "named by SGLang's error message; set on the launch command line"
                        : "named by SGLang's error message; not on the launch command line";
  }
  run->settings.push_back(std::move(s));
}

// A log whose lines carry no rank tags (vLLM V0's "(VllmWorkerProcess pid=..)" numbers no rank)
// may still print NCCL's communicator set-up ("ncclCommInitRank comm 0x.. rank 1 nranks 2 ...",
// read by common_lines.cc): its largest communicator spans the engine's GPUs, taken as TP when
// nothing else names the layout.
void LayoutFromNccl(RunRecord* run) {
  if (run->nccl_ranks < 2 || run->tp_from_ranks > 0 || run->pp_from_ranks > 0 ||
      run->dp_from_ranks > 0) {
    return;
  }
  bool sglang = run->engine == "sglang";
  if (!sglang && run->engine != "vllm") return;
  for (std::string_view key :
       {"tp_size", "pp_size", "tensor_parallel_size", "pipeline_parallel_size"}) {
    if (run->FindSetting(key) != nullptr) return;
  }
  run->tp_from_ranks = run->nccl_ranks;
  run->settings.push_back(
      {sglang ? "tp_size" : "tensor_parallel_size", fmt::format("{}", run->nccl_ranks), "derived",
       fmt::format("derived from NCCL's communicator set-up (nranks {}; no line carries a rank "
                   "tag), taken as tensor parallel",
                   run->nccl_ranks)});
}

// The value the launch command gives `flag` ("--tp 8", "--tp=8"), when it is a whole number.
std::optional<int> CommandValue(std::string_view command, std::string_view flag) {
  size_t at = 0;
  while ((at = command.find(flag, at)) != std::string_view::npos) {
    bool starts = at == 0 || command[at - 1] == ' ' || command[at - 1] == '\t';
    size_t end = at + flag.size();
    at = end;
    if (!starts || end >= command.size() || (command[end] != ' ' && command[end] != '=')) {
      continue;
    }
    size_t v = command.find_first_not_of(" =", end);
    if (v == std::string_view::npos || v > end + 8) return std::nullopt;
    int n = 0;
    size_t digits = 0;
    for (; v < command.size() && command[v] >= '0' && command[v] <= '9' && digits < 6; ++v) {
      n = n * 10 + (command[v] - '0');
      ++digits;
    }
    bool whole = digits > 0 && (v == command.size() || command[v] == ' ' || command[v] == '\t');
    return whole ? std::optional<int>(n) : std::nullopt;
  }
  return std::nullopt;
}

// A log that prints no server arguments may still hold the launch command ("$ python -m
// sglang.launch_server ... --tp 8 --dp 8", "vllm serve ... --tensor-parallel-size 3"): its
// layout flags are the user's settings, stronger evidence than rank tags.
void LayoutFromLaunchCommand(RunRecord* run) {
  bool sglang = run->engine == "sglang";
  if (run->launch_command.empty() || (!sglang && run->engine != "vllm")) return;
  static constexpr std::string_view kSglang[] = {"tp_size", "dp_size", "pp_size", "ep_size",
                                                 "nnodes"};
  static constexpr std::string_view kVllm[] = {"tensor_parallel_size", "data_parallel_size",
                                               "pipeline_parallel_size"};
  std::span<const std::string_view> keys = sglang ? std::span<const std::string_view>(kSglang)
                                                  : std::span<const std::string_view>(kVllm);
  for (std::string_view key : keys) {
    if (run->FindSetting(key) != nullptr) continue;
    for (const std::string& flag : FlagSpellings(run->engine, key)) {
      std::optional<int> v = CommandValue(run->launch_command, flag);
      if (!v) continue;
      run->settings.push_back({std::string(key), fmt::format("{}", *v), "user",
                               fmt::format("set on the launch command line ({} {}); the log "
                                           "prints no server arguments for it",
                                           flag, *v)});
      break;
    }
  }
}

}  // namespace

std::vector<std::string> CommandFlags(std::string_view command) {
  std::vector<std::string> flags;
  size_t i = 0;
  while (i < command.size()) {
    while (i < command.size() && (command[i] == ' ' || command[i] == '\t')) ++i;
    size_t start = i;
    while (i < command.size() && command[i] != ' ' && command[i] != '\t') ++i;
    std::string_view tok = command.substr(start, i - start);
    // "--tp 8", "--tp=8", and the short spellings argparse also takes ("-tp 1", vLLM's).
    bool long_flag = tok.size() > 2 && tok[0] == '-' && tok[1] == '-';
    bool short_flag =
        tok.size() > 1 && tok[0] == '-' && std::isalpha(static_cast<unsigned char>(tok[1]));
    if (long_flag || short_flag) flags.emplace_back(tok.substr(0, tok.find('=')));
  }
  return flags;
}

std::vector<std::string> FlagSpellings(std::string_view engine, std::string_view key) {
  std::string dashed(key);
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  std::vector<std::string> out = {"--" + dashed};
  struct Alias {
    std::string_view engine, key, flag;
  };
  static constexpr Alias kAliases[] = {
      {"sglang", "model_path", "--model"},
      {"sglang", "tp_size", "--tp"},
      {"sglang", "tp_size", "--tensor-parallel-size"},
      {"sglang", "dp_size", "--dp"},
      {"sglang", "dp_size", "--data-parallel-size"},
      {"sglang", "pp_size", "--pp"},
      {"sglang", "pp_size", "--pipeline-parallel-size"},
      {"sglang", "ep_size", "--ep"},
      {"sglang", "ep_size", "--expert-parallel-size"},
      {"vllm", "tensor_parallel_size", "-tp"},
      {"vllm", "data_parallel_size", "-dp"},
      {"vllm", "pipeline_parallel_size", "-pp"},
  };
  for (const Alias& a : kAliases) {
    if (a.engine == engine && a.key == key) out.emplace_back(a.flag);
  }
  return out;
}

// vLLM prints the max_model_len a launch resolved in its config lines, its too-small error ("max
// seq len (221000)") and its concurrency line ("Maximum concurrency for 100,000 tokens per
// request": v1/core/kv_cache_utils.py and V0's executor_base.py format model_config.max_model_len
// there): a log without args or a launch command still says it; diff and the re-plan read it.
void MaxModelLenFromLog(RunRecord* run) {
  if (run->engine != "vllm" || run->FindSetting("max_model_len") != nullptr) return;
  std::optional<double> len = run->Figure("max_model_len");
  std::string_view where =
      "the log (its engine config, \"Using max model len\" or too-small error line)";
  if (!len) {
    len = run->Figure("max_concurrency_tokens");
    where = "the concurrency line (\"Maximum concurrency for N tokens per request\")";
  }
  if (!len) return;
  // With the launch's own flags in the log (its command, or non-default args) and none for it,
  // the value is vLLM's default; otherwise who set it is unknown.
  bool flags_known = !run->launch_command.empty() ||
                     std::any_of(run->settings.begin(), run->settings.end(),
                                 [](const LoggedSetting& s) { return s.provenance == "user"; });
  run->settings.push_back(
      {"max_model_len", fmt::format("{:g}", *len), flags_known ? "auto" : "unknown",
       flags_known
           ? fmt::format("{}; printed in {}; not among the launch's flags",
                         DefaultRuleName("vllm", "max_model_len"), where)
           : fmt::format("printed in {}; the log holds no launch command or args for it", where)});
}

void AssignProvenance(RunRecord* run) {
  AssignPrintedProvenance(run);
  FractionFromErrorMessage(run);
  LayoutFromLaunchCommand(run);
  LayoutFromEngineConfig(run);
  LayoutFromNccl(run);
  LayoutFromRankTags(run);
  MaxModelLenFromLog(run);
}

void AssignPrintedProvenance(RunRecord* run) {
  if (!run->launch_command.empty()) {
    FromCommandLine(run);
    return;
  }
  // Only non-default args are "user" here: an args Namespace lists defaults too.
  bool vllm_listed = run->engine == "vllm" &&
                     std::any_of(run->settings.begin(), run->settings.end(),
                                 [](const LoggedSetting& s) { return s.provenance == "user"; });
  for (LoggedSetting& s : run->settings) {
    if (s.provenance == "user" || s.rule == kArgsLineRule) continue;
    s.provenance = "unknown";
    s.rule = "the log prints resolved values only and holds no launch command";
  }
  // vLLM prints gpu_memory_utilization in its profiling lines even when it is the default.
  std::optional<double> util = run->Figure("gpu_memory_utilization");
  if (run->engine == "vllm" && util && run->FindSetting("gpu_memory_utilization") == nullptr) {
    LoggedSetting s{"gpu_memory_utilization", fmt::format("{:g}", *util), "unknown",
                    "printed by the profiler; no non-default args line in the log"};
    if (vllm_listed) {
      s.provenance = "auto";
      s.rule = "vLLM's default (0.9); not in vLLM's non-default args";
    }
    run->settings.push_back(s);
  }
}

void MarkDefaultRuleMatch(RunRecord* run, std::string_view key, double default_value,
                          std::string_view rule_name) {
  for (LoggedSetting& s : run->settings) {
    if (s.key != key || s.provenance != "unknown") continue;
    std::optional<double> v = run->SettingNumber(key);
    if (!v) return;
    if (std::fabs(*v - default_value) < 5e-4) {
      s.provenance = "auto";
      s.rule = fmt::format("matches the default rule ({} gives {:g})", rule_name, default_value);
    } else {
      s.provenance = "user";
      s.rule = default_value < 0 ? fmt::format("differs from the default rule ({})", rule_name)
                                 : fmt::format("differs from the default rule ({} gives {:g})",
                                               rule_name, default_value);
    }
  }
}

}  // namespace kvplan
