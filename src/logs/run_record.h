// What one launch did, as read from its log: the engine, the effective
// configuration with where each value came from, the GPU, the memory
// timeline per rank, the KV figures, and the outcome.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logs/decode_summary.h"

namespace kvplan {

// Stages of the memory timeline, in start-up order.
inline constexpr std::string_view kStageInitDistributed = "init_distributed";
inline constexpr std::string_view kStageLoadWeightBegin = "load_weight_begin";
inline constexpr std::string_view kStageLoadWeightEnd = "load_weight_end";
inline constexpr std::string_view kStageKvAllocated = "kv_allocated";
inline constexpr std::string_view kStageMemoryPoolEnd = "memory_pool_end";
inline constexpr std::string_view kStageGraphBegin = "cuda_graph_begin";
inline constexpr std::string_view kStageGraphEnd = "cuda_graph_end";
inline constexpr std::string_view kStageSummary = "ready_summary";

// One memory line of one rank.
struct MemoryPoint {
  std::string rank;  // "TP3", "DP1 TP2 EP2", "" for a single process
  std::string time;  // as printed
  std::string stage;
  std::optional<double> avail_gib;  // free memory the line reports
  std::optional<double> usage_gib;  // memory the stage consumed
  int64_t line = 0;
};

// One effective setting and where its value came from.
struct LoggedSetting {
  std::string key;         // the engine's name: "mem_fraction_static", "gpu_memory_utilization"
  std::string value;       // as kvplan shows it (strings unquoted)
  std::string provenance;  // "user", "auto" or "unknown"
  std::string rule;        // why kvplan says so
};

// The rule of a setting read from vLLM's "args: Namespace(...)" line (vllm_lines.cc): the value
// the launch parsed, whether the user passed it or argparse defaulted it; provenance.cc keeps it
// unless a launch command in the log says which.
inline constexpr std::string_view kArgsLineRule = "from the log's args line (set or defaulted)";

struct RunRecord {
  std::string engine;       // "sglang", "vllm", "" when the log does not say
  std::string version;      // printed release, or "" when not printed
  std::string era;          // the era the line formats imply, e.g. "v0.4.9-v0.5.x"
  std::string model;        // model_path / model
  std::string model_class;  // "Qwen3ForCausalLM" (SGLang's type=)
  std::string dtype;        // "torch.bfloat16"
  std::string kv_dtype;     // "torch.bfloat16"
  std::string gpu_name;     // from an nvidia-smi table in the log, "" when absent
  int64_t gpu_capacity_mib = 0;
  int gpu_count = 0;
  std::string launch_command;  // the command line, when the log holds it

  std::vector<LoggedSetting> settings;  // server_args / non-default args, in printed order
  bool settings_complete = true;        // false: the args line was cut or garbled
  std::vector<MemoryPoint> timeline;
  std::map<std::string, double> figures;  // named like the "logged" keys of ../shared/cases
  std::vector<int64_t> cuda_graph_bs;
  DecodeSummary decode;  // what the run measured while serving; empty when it printed no report

  std::string outcome = "incomplete";  // "ok", "failed" or "incomplete"
  std::string error;                   // the engine's failure message, word for word
  std::vector<std::string> traceback;
  std::vector<std::string> notes;  // what kvplan could not read, and why

  // The largest rank each rank tag names, + 1 ("TP7" -> 8, "DP3 TP1" -> dp 4, "(VllmWorker
  // rank=3 pid=..)" -> tp 4); 0 when the log shows no such tag.
  int tp_from_ranks = 0, dp_from_ranks = 0, pp_from_ranks = 0;
  // Which of the ranks 0-63 a tag named, per axis: an excerpt that shows rank 5 alone says the
  // size is at least 6, not that it is 6.
  uint64_t tp_ranks_seen = 0, dp_ranks_seen = 0, pp_ranks_seen = 0;
  // The largest NCCL communicator the log sets up ("... rank 1 nranks 2 ...") and the most nodes
  // one spans; 0 when no NCCL INFO line. Where no line carries a rank tag, provenance.cc takes
  // nccl_ranks as the TP (and sets tp_from_ranks to it).
  int nccl_ranks = 0, nccl_nodes = 0;

  int launch_index = 0;  // 0-based position of this launch in its log
  int64_t first_line = 0, last_line = 0;
  std::string started_at;  // the first timestamp of the launch, as printed

  const LoggedSetting* FindSetting(std::string_view key) const;
  std::optional<double> Figure(std::string_view key) const;
  // The smallest avail (or usage) reported at `stage` over all ranks.
  std::optional<double> MinAvail(std::string_view stage) const;
  std::optional<double> MinUsage(std::string_view stage) const;
  int RankCount(std::string_view stage) const;
  // The setting as a number, when it is one.
  std::optional<double> SettingNumber(std::string_view key) const;
  // The setting as a small integer (|v| < 1e9), else `fallback`.
  int64_t SettingInt(std::string_view key, int64_t fallback) const;
  // The TP the log shows: its tp_size / tensor_parallel_size setting (printed, on the launch
  // command, or derived by provenance.cc), else the rank tags' (tp_from_ranks); nullopt when
  // the log carries no rank information at all, which is not TP 1.
  std::optional<int64_t> LoggedTp() const;
};

}  // namespace kvplan
