// Provenance rule 3 (see provenance.h): a printed SGLang mem_fraction_static
// with no launch command in the log is compared with what SGLang's own default
// rule gives for the run's GPU (nvidia-smi capacity) and parallel layout, under
// each release the log's line formats allow. Equal under one of them -> "auto
// (matches the default rule)"; different under all -> "user".
#pragma once

#include <cstdint>

#include "logs/run_record.h"

namespace kvplan {

// `capacity_mib` overrides the capacity read from an nvidia-smi table in the
// log (0 = use the log's). Does nothing when neither is known.
void ApplyDefaultRuleProvenance(RunRecord* run, int64_t capacity_mib = 0);

}  // namespace kvplan
