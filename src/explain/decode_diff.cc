#include "explain/decode_diff.h"

namespace kvplan {

std::optional<int64_t> CommonBatch(const RunRecord& a, const RunRecord& b) {
  const DecodeBatchFigures* ca = a.decode.MostCommon();
  const DecodeBatchFigures* cb = b.decode.MostCommon();
  if (ca && b.decode.Batch(ca->running_reqs)) return ca->running_reqs;
  if (cb && a.decode.Batch(cb->running_reqs)) return cb->running_reqs;
  if (a.decode.Batch(1) && b.decode.Batch(1)) return 1;
  return std::nullopt;
}

}  // namespace kvplan
