#include "perf/published_collectives.h"

#include <cmath>

#include <gtest/gtest.h>

namespace kvplan {
namespace {

// Every collective figure of perf-model.md sections 2-3: within 25 % unless
// docs/perf-validation.md lists it as a known miss with its reason, and each
// listed miss really is one (so the list cannot go stale silently).
TEST(PublishedCollectives, WithinTwentyFivePercentOrAnExplainedMiss) {
  int within = 0;
  for (const PublishedCollective& f : PublishedCollectives()) {
    const double p = PredictPublished(f);
    const double err = std::fabs(p - f.published) / f.published;
    if (f.known_miss == nullptr) {
      EXPECT_LE(err, 0.25) << f.system << " " << f.bytes << " B: published " << f.published
                           << ", kvplan " << p << " (" << f.source << ")";
      ++within;
    } else {
      EXPECT_GT(err, 0.25) << f.system << " is listed as a miss but fits now: " << p;
    }
  }
  // The table covers the reference: most figures must be claimed.
  EXPECT_GE(within, 55);
}

// The story's PCIe fact, directly: on a dual-socket 8-GPU PCIe box a forced
// one-shot kernel loses to NCCL from 8 KB up (rtx6kpro: 64.3 vs 57.6 us at
// 8 KB, 503.9 vs 67.8 us at 64 KB); decode allreduces are 14 KB here.
TEST(PublishedCollectives, CustomAllreduceLosesToNcclOnDualSocketPcie) {
  int sizes = 0;
  for (const PublishedCollective& f : PublishedCollectives()) {
    if (f.topology != Topology::kPcieDualSocket || f.impl != CollImpl::kCustomAr) continue;
    if (f.bytes < 8192) continue;  // at 4 KB the measured one-shot still wins (30.6 vs 57.2 us)
    ++sizes;
    PublishedCollective nccl = f;
    nccl.impl = CollImpl::kNccl;
    EXPECT_GT(PredictPublished(f), PredictPublished(nccl)) << f.bytes;
  }
  EXPECT_GE(sizes, 2);  // the story's 8 KB and 64 KB rows at least
}

}  // namespace
}  // namespace kvplan
