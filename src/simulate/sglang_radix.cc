#include "simulate/sglang_radix.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "simulate/prefix_cache.h"

namespace kvplan {
namespace {

// schedule_policy.py _determine_active_policy (v0.5): lpm is FCFS past 128 waiting.
constexpr size_t kLpmMaxWaiting = 128;
// schedule_policy.py (v0.5): IN_BATCH_PREFIX_CACHING_CHECK_THRESHOLD and
// IN_BATCH_PREFIX_CACHING_DEPRIORITIZE_THRESHOLD, both 32 tokens by default.
constexpr int64_t kInBatchCheckTokens = 32;
constexpr int64_t kInBatchDeprioritizeTokens = 32;

}  // namespace

void SortByLongestPrefix(SchedulerState* s) {
  if (!s->kv.cache) return;
  size_t received = 0;
  while (received < s->waiting.size() && s->waiting[received]->received) ++received;
  if (received < 2 || received > kLpmMaxWaiting) return;
  // The waiting-queue tree of _compute_prefix_matches: per group, the longest
  // prefix a request not deprioritized has put in it.
  std::unordered_map<int64_t, int64_t> queued_prefix;
  std::vector<std::pair<int64_t, SimRequest*>> keyed;
  keyed.reserve(received);
  for (size_t i = 0; i < received; ++i) {
    SimRequest* r = s->waiting[i];
    const int64_t match = s->kv.cache->MatchPages(*r) * s->kv.page_tokens;
    bool deprioritized = false;
    if (match <= kInBatchCheckTokens && r->prefix_group >= 0) {
      const auto it = queued_prefix.find(r->prefix_group);
      const int64_t in_batch = it == queued_prefix.end() ? 0 : std::min(r->prefix_len, it->second);
      deprioritized = in_batch >= kInBatchDeprioritizeTokens;
      if (!deprioritized) {
        int64_t& longest = queued_prefix[r->prefix_group];
        longest = std::max(longest, r->prefix_len);
      }
    }
    // _sort_by_longest_prefix (v0.5): key -len(prefix_indices), deprioritized inf; stable
    keyed.push_back({deprioritized ? std::numeric_limits<int64_t>::max() : -match, r});
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < received; ++i) s->waiting[i] = keyed[i].second;
}

}  // namespace kvplan
