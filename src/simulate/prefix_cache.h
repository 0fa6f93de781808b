// The engines' prefix caches as the simulation runs them: SGLang's radix cache
// (python/sglang/srt/mem_cache/radix_cache.py) and vLLM V1's prefix caching
// (vllm/v1/core/kv_cache_manager.py, block_pool.py). Requests of one prefix
// group (workload.h) begin with the same tokens, so the radix tree's path for
// a group is one chain of pages: the cache holds, per group, its first
// `cached` pages, each shared by every running request that references it and
// counted once. Pages no running request references are evictable: they count
// as available and are evicted, least recently used group first and from the
// chain's end (a radix tree evicts leaves first), when the free pages run
// out. A request's own whole pages past its group's prefix stay cached when it
// ends (a radix tree keeps the finished sequence; vLLM's free queue keeps the
// blocks' hashes) but are never matched again: they are evictable too, in the
// same least-recently-used order as the groups' pages. Pages never used, and a
// last page not full, are free.
//
// Both engines match only whole pages (SGLang pages, vLLM blocks) and leave at
// least the prompt's last token to compute; a match takes no page from the pool.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "simulate/scheduler.h"

namespace kvplan {

class PrefixCache {
 public:
  explicit PrefixCache(int64_t page_tokens) : page_tokens_(page_tokens) {}

  // The pages of r's prompt the cache holds now: its group's cached prefix, or
  // its --prefix-hit-rate tokens, whole pages of at most Known() - 1 tokens.
  int64_t MatchPages(const SimRequest& r) const;
  // r references the first `pages` pages of its group (or, without a group,
  // finds them cached: its own pages hold them); its computed tokens start there.
  void Acquire(SimRequest* r, int64_t pages);
  // Undoes Acquire for a request the scheduler did not admit after all.
  void Unacquire(SimRequest* r);
  // The whole pages of r's group prefix within its first `tokens` tokens
  // enter the cache. Pages the group already held are r's duplicates: r
  // references the cached ones and the count of its own is returned, to be
  // freed (radix_cache.py cache_unfinished_req frees the duplicated indices).
  int64_t Insert(SimRequest* r, int64_t tokens);
  // r, leaving the running batch, stops referencing its group's pages.
  void Release(const SimRequest& r);
  // `pages` of a request that ended, cached but never matched: evictable from now.
  void KeepUnmatched(int64_t pages);
  // Evicts up to `pages` unreferenced pages; returns how many it evicted.
  int64_t Evict(int64_t pages);

  int64_t evictable_pages() const { return evictable_; }
  int64_t cached_pages() const;

  // Hit accounting, per admission: tokens found cached, tokens of the prompt.
  void CountAdmission(int64_t known_tokens, int64_t hit_tokens);
  int64_t hit_tokens() const { return hit_tokens_; }
  int64_t query_tokens() const { return query_tokens_; }

 private:
  struct Group {
    int64_t cached = 0;               // pages of its prefix held, from the start
    std::map<int64_t, int64_t> refs;  // pages referenced -> running requests
    int64_t last_use = 0;             // radix_cache.py TreeNode.last_access_time
  };
  static int64_t Referenced(const Group& g) { return g.refs.empty() ? 0 : g.refs.rbegin()->first; }
  static int64_t Unreferenced(const Group& g) { return g.cached - Referenced(g); }
  // Take g out of, and put it back into, the evictable count and the LRU order.
  void Detach(int64_t id, const Group& g);
  void Attach(int64_t id, Group* g, bool touch);
  static void AddRef(Group* g, int64_t pages, int64_t delta);

  int64_t page_tokens_;
  std::unordered_map<int64_t, Group> groups_;
  std::set<std::pair<int64_t, int64_t>> lru_;          // (last_use, group) with evictable pages
  std::deque<std::pair<int64_t, int64_t>> unmatched_;  // (last_use, pages), oldest first
  int64_t evictable_ = 0, clock_ = 0;
  int64_t hit_tokens_ = 0, query_tokens_ = 0;
};

// What an admission found in the cache.
struct PrefixHit {
  int64_t tokens = 0;        // prompt tokens it need not compute
  int64_t locked_pages = 0;  // evictable pages it referenced (no longer evictable)
};

// A waiting request (nothing computed) takes the prefix the cache holds for
// it: r->computed starts after it. Nothing without a cache.
PrefixHit TakeCachedPrefix(KvPool* kv, SimRequest* r);
// The request was not admitted: it holds no prefix and has computed nothing.
void ReturnCachedPrefix(KvPool* kv, SimRequest* r);
// The request was admitted with `hit`: counted for the hit rate.
void CountPrefixHit(KvPool* kv, const SimRequest& r, const PrefixHit& hit);
// r's group prefix within its first `tokens` tokens enters the cache.
void CachePrefix(KvPool* kv, SimRequest* r, int64_t tokens);

}  // namespace kvplan
