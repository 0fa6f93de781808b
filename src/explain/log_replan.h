// Re-plans a logged launch through kvplan's engine model: the run's effective
// settings become SglangArgs, the free memory the engine measured before and
// after loading weights (min over ranks, as the engine's distributed MIN
// gives) becomes SglangMeasured, and PlanSglang does the arithmetic for the
// release the log's era implies. Used by `kvplan explain` (check the log
// against the engine model, --set) and `kvplan diff` (the effect of each
// changed setting).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/sglang/sglang.h"
#include "explain/explain_types.h"
#include "logs/run_record.h"

namespace kvplan {

// PlanSglang's inputs, as read from one run.
struct SglangReplanInputs {
  SglangArgs args;
  SglangMeasured measured;
  ModelSpec model;
  std::optional<ModelSpec> draft;
  GpuSpec gpu;
  std::string version;               // a representative release of the log's era
  std::vector<std::string> notes;    // where the version, model and GPU came from
  double pre_gib = 0, post_gib = 0;  // as logged (2 decimals)
  std::string pre_source, post_source;
  bool pre_derived = false;           // pre = post + the load's mem usage (no Load weight begin)
  std::string mfs_provenance;         // "measured", "derived" or "assumed" (sglang_fraction.h)
  std::string mfs_source;             // the figure, formula or rule it came from
  int64_t inferred_capacity_mib = 0;  // the GPU capacity the fraction's rule matched at (inferred)
  bool mfs_from_kv_line = false;  // derived from the logged pool: checking against it is circular
  int64_t log_cell_bytes = 0;     // KV bytes per token the log's KV line implies (0: none)
  int64_t log_cell_uncertainty = 0;  // +- bytes, from the log's 2-decimal rounding
};

// The inputs of an SGLang run, each with its provenance; nullopt (with the
// missing figure and the flag that supplies it in `why`, one line) when the
// log lacks the post-load line, the pre-load free memory (a Load weight begin
// line or the load's mem usage), or any way to the fraction.
std::optional<SglangReplanInputs> SglangReplanInputsOf(const RunRecord& run, std::string* why);

// PlanSglang on the inputs (no fixes). A launch the planner refuses (an
// InputError such as a sharding refusal) is a failed verdict with its message.
SglangReplanVerdict ReplanSglang(const SglangReplanInputs& in);

// Whether --set (or a diff) can change `flag` on the logged measured memory:
// the settings that do not change what the log measured.
bool SglangSettingReplannable(const std::string& flag);

// Applies `--set FLAG=VALUE` (SGLang flag or server_args name) to the args.
// Throws InputError naming the flags kvplan can re-plan when `flag` is not one
// of them or `value` is bad. "None" returns an optional setting to the engine's default.
void ApplySglangSet(SglangReplanInputs* in, const std::string& flag, const std::string& value);

// "--mem-fraction-static" / "mem_fraction_static" -> "mem_fraction_static".
std::string SettingKey(const std::string& flag);

}  // namespace kvplan
