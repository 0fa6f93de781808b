// The memory pools a hybrid model's log reports, each on its own: the full-attention KV pool,
// the sliding-window KV pool, the Mamba / linear-attention state pool. A plain model has one
// pool, the KV line explain already shows; these are listed only when there is more than one
// kind, so that the SWA or state pool is never read as the KV size.
#pragma once

#include <vector>

#include "explain/explain_types.h"
#include "logs/run_record.h"

namespace kvplan {

// The pools `r` prints, full KV first; empty unless the log shows a SWA or state pool.
std::vector<LoggedPool> LoggedPoolsOf(const RunRecord& r);

}  // namespace kvplan
