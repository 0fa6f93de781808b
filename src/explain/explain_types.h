// What `kvplan explain` finds in one launch, as plain values: the re-plans'
// verdicts, the decode prediction and the whole result that report/ renders
// as text and as JSON. No formatting here; the computation is explain.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kvplan/plan.h"
#include "logs/run_record.h"

namespace kvplan {

// The re-plan of a logged SGLang launch, as explain reports it (not the
// planner's own verdict stage, engines/sglang/stages.h SglangVerdict).
struct SglangReplanVerdict {
  double rest_gib = 0;
  std::optional<int64_t> tokens;  // max_total_num_tokens
  bool ok = false;
  std::string error;               // the engine's message when it fails
  std::vector<std::string> steps;  // the planner's stages, one line each
  std::vector<std::string> notes;  // where the log and the model disagree before the budget
  int64_t cell_bytes = 0;
  double mfs = 0;
  int64_t page_size = 1;
};

struct VllmReplanVerdict {
  double kv_gib = 0;         // the KV budget the planner gives
  bool budget_only = false;  // no model: the budget sum, no tokens (tokens is empty then)
  std::optional<int64_t> tokens;
  bool ok = false;
  std::string error;
  std::vector<std::string> steps;
  std::vector<Fix> fixes;  // the planner's, when the re-planned launch fails
};

struct DecodePredictionRow {
  int64_t running_reqs = 0;
  double predicted_tok_s = 0;  // the whole batch, as the engine's gen throughput counts
  double measured_tok_s = 0;   // the median the run reported at this count
};

struct DecodePrediction {
  // The most common running-request count first, then 1 when it was reported.
  std::vector<DecodePredictionRow> rows;
  std::vector<std::string> inputs;  // where each input came from ("context 2048 assumed", ...)
  std::string why_not;              // non-empty (and rows empty) when kvplan cannot predict
};

struct ExplainOptions {
  std::vector<std::pair<std::string, std::string>> sets;  // --set FLAG=VALUE, in order
};

// One stage of the memory timeline over all ranks.
struct TimelineRow {
  std::string stage;
  std::optional<double> min_avail_gib, min_usage_gib, max_avail_gib;
  int ranks = 0;
};

// The logged KV token count against the re-planned one.
struct SglangLogCheck {
  enum Kind {
    kNone,                // nothing to check
    kMatches,             // within the log's 2-decimal rounding
    kMismatch,            // outside it
    kBothFail,            // the run failed and the model fails it too
    kModelFitsButFailed,  // the run failed, the model says it fits
    kClose,  // an excerpt (a figure derived or assumed): outside the rounding, within 0.5 %
  };
  Kind kind = kNone;
  int64_t logged_tokens = 0;
  double logged_kv_gib = 0;
  double implied_mfs = 0;  // the fraction the logged pool implies
  int64_t difference = 0;  // logged - modelled tokens
  int64_t tolerance = 0;
  double relative = 0;    // difference / logged tokens
  bool circular = false;  // the fraction came from this same KV line
};

// One input of a re-plan and where it came from.
struct ReplanInput {
  std::string name;  // "pre_load_free_gib", "mem_fraction_static", ...
  double value = 0;
  std::string provenance;  // "measured", "derived", "assumed"
  std::string how;         // the line or formula or rule
};

struct SglangExplain {
  std::string unavailable;  // why the log cannot be re-planned; the rest is empty then
  std::string version;
  std::vector<std::string> inputs;  // where the version, model and GPU came from
  double pre_gib = 0, post_gib = 0;
  std::string pre_source, post_source;
  std::vector<ReplanInput> provenance;  // pre, post and the fraction, each with its provenance
  int64_t log_cell_bytes = 0;
  std::optional<int64_t> logged_tokens;  // the log's KV line, also when there is no re-plan
  SglangReplanVerdict verdict;
  SglangLogCheck check;
  std::optional<SglangReplanVerdict> what_if;  // every --set together
};

struct VllmWhatIf {
  std::string flag, value;
  VllmReplanVerdict verdict;
  std::optional<int64_t> max_model_len;
};

struct VllmExplain {
  std::vector<std::pair<std::string, double>> figures;  // the log's KV figures, as printed
  std::optional<double> logged_kv_gib_for_cell;         // the budget the implied cell divides
  std::optional<double> logged_tokens_for_cell;         // the tokens it bought
  std::string unavailable;  // why not re-planned; the rest is empty then
  std::string version;
  std::vector<std::string> inputs;
  double logged_kv_gib = 0;
  bool kv_logged = true;  // false: nothing to check the re-plan against
  bool kv_only = false;   // the KV budget is the log's: the check is the tokens it bought
  std::optional<int64_t> logged_tokens;  // with kv_only
  double tokens_relative = 0;            // (re-planned - logged) / logged tokens
  VllmReplanVerdict verdict;
  bool matches = false;                          // within the log's rounding
  std::vector<VllmWhatIf> what_ifs;              // each --set alone (the text)
  std::optional<VllmReplanVerdict> what_if_all;  // every --set together (the JSON)
  // A failed launch's fixes: the re-plan's, else from the figures its KV error prints.
  std::vector<Fix> fixes;
  std::string fixes_from;  // "re-plan" or "the error's figures"
};

// A TensorRT-LLM launch's KV figures (engines/trtllm is the planner; the log
// rarely holds the free memory it multiplies by free_gpu_memory_fraction).
struct TrtllmExplain {
  std::vector<std::pair<std::string, double>> figures;  // as printed, in reading order
  std::optional<int64_t> logged_tokens;                 // max tokens in paged KV cache
  std::optional<int64_t> kv_bytes;                      // the allocated pool
  std::optional<int64_t> bytes_per_token;               // kv_bytes / logged_tokens
  std::optional<int64_t> block_tokens;                  // primary blocks x tokens per block
  std::optional<double> implied_free_gib;               // kv_bytes / the default fraction 0.9
  std::string unavailable;                              // the missing figure and what supplies it
  // The re-plan (unavailable empty): the logged free memory at KV sizing x the fraction,
  // over the log's bytes per token, in blocks (engines/trtllm's budget and blocks stages).
  double free_gib = 0, fraction = 0, kv_gib = 0;
  std::optional<int64_t> tokens;
  double relative = 0;  // (re-planned - logged) / logged tokens
  std::vector<std::string> steps;
};

// One memory pool as the log prints it (per rank): a hybrid model reports several.
struct LoggedPool {
  std::string kind;           // "full-attention KV", "sliding-window KV", "Mamba state"
  int64_t size = 0;           // in `unit`
  std::string unit;           // "tokens", "request slots"
  std::optional<double> gib;  // the pool's memory, the sum of its printed parts
  std::string detail;         // the parts as printed ("K 4.15 + V 4.15 GiB")
};

struct ExplainResult {
  RunRecord run;
  std::string log_path;
  int launches = 1;  // in the log
  ExplainOptions options;
  std::vector<LoggedSetting> memory_settings;  // the ones shown: memory knobs set or defaulted
  std::vector<TimelineRow> timeline;           // stages in first-seen order
  std::vector<LoggedPool> pools;               // a hybrid model's pools; empty for one pool
  std::optional<SglangExplain> sglang;
  std::optional<VllmExplain> vllm;
  std::optional<TrtllmExplain> trtllm;
  std::string stops;  // an incomplete launch: where the log stops ("during CUDA-graph capture")
  std::string speculation;                            // SpeculationOf(run)
  std::optional<std::string> nothing_accepted_cause;  // NothingAcceptedCause(run)
  std::optional<DecodePrediction> decode_prediction;  // when the run has a busy decode report
};

}  // namespace kvplan
