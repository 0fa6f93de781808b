// The mem_fraction_static a re-plan of a logged SGLang launch uses, and where
// it came from: printed in server_args (measured); else what the logged KV
// pool implies, set against each default rule SGLang may have applied (the
// rule's value is then assumed, the check against the log is real); else the
// implied value itself (derived from the same KV line, so the check is only
// a consistency check); else, with no KV line, the default rule for a known
// GPU (assumed, nothing to check against).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "logs/run_record.h"

namespace kvplan {

// SGLang's budget (model_runner.py: rest = post - pre * (1 - fraction)) solved
// for the fraction that leaves `kv_gib` for the pool.
double ImpliedMemFraction(double pre_gib, double post_gib, double kv_gib);

// What the engine's figures allow about the fraction, as read from one run.
struct SglangFractionInput {
  double pre_gib = 0, post_gib = 0;
  double pre_doubt_gib = 0.005;  // +- from the log's rounding (0.01 when pre = post + usage)
  std::optional<double> kv_gib;  // the logged pool: tokens x the log's cell
  double kv_doubt_gib = 0;       // +- from the cell's rounding and the page
  std::string pool = "KV pool";  // what kv_gib is, for the formula
};

struct SglangFraction {
  std::optional<double> value;    // nullopt: no fraction (`how` says what is missing)
  std::string provenance;         // "measured", "derived", "assumed"
  std::string how;                // one line: the figure, its formula or the rule
  std::optional<double> implied;  // what the KV line implies, when the log has one
  bool from_kv_line = false;      // the value is the implied one: a check against it is circular
  int64_t inferred_capacity_mib = 0;  // the matched rule's capacity, when inferred from the figures
};

SglangFraction SglangFractionOf(const RunRecord& run, const SglangFractionInput& in);

}  // namespace kvplan
