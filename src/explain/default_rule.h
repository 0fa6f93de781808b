// Provenance rule 3 (see provenance.h): a printed SGLang mem_fraction_static
// with no launch command in the log is compared with what SGLang's own default
// rule gives for the run's GPU (nvidia-smi capacity) and parallel layout, under
// each release the log's line formats allow. Equal under one of them -> "auto
// (matches the default rule)"; different under all -> "user".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "logs/run_record.h"

namespace kvplan {

// `capacity_mib` overrides the capacity read from an nvidia-smi table in the
// log (0 = use the log's). With neither, `infer_capacity` takes the one catalog
// capacity the load's figures (free + used after loading) fit, and the rule says
// so; otherwise (or when none or several fit) it does nothing.
void ApplyDefaultRuleProvenance(RunRecord* run, int64_t capacity_mib = 0,
                                bool infer_capacity = false);

// What one release's default rule gives for the run at one GPU capacity.
struct SglangDefaultFraction {
  std::string release;  // canonical, e.g. "0.5.3"
  double fraction = 0;
};

// SGLang's default mem_fraction_static for the run (its TP, DP attention,
// speculation, MLA-ness and the sizes the user set) at `gpu_mem_mib`, under
// each release the log's era allows.
std::vector<SglangDefaultFraction> SglangDefaultFractions(const RunRecord& run,
                                                          int64_t gpu_mem_mib);

// The TP a default rule was applied at, as its text says it: "TP 2", or "TP 1 (assumed: the
// log names no TP)" where the log carries no rank information (RunRecord::LoggedTp).
std::string RuleTp(const RunRecord& run);

// "0.4.6 gives 0.88, 0.5.3 gives 0.848".
std::string DefaultFractionListing(const std::vector<SglangDefaultFraction>& fractions);

}  // namespace kvplan
