#include "simulate/prefix_cache.h"

#include <algorithm>

namespace kvplan {

int64_t PrefixCache::MatchPages(const SimRequest& r) const {
  // schedule_batch.py Req.adjust_max_prefix_ids (v0.4-v0.5): max_prefix_len = input_len - 1;
  // vllm/v1/core/kv_cache_manager.py get_computed_blocks (v0.8+): max_cache_hit_length =
  // request.num_tokens - 1 (the last token is recomputed to sample from its logits)
  const int64_t most = r.Known() - 1;
  if (r.prefix_group < 0) {
    // radix_cache.py match_prefix (v0.5): the key cut to a page multiple; block_pool.py
    // (v0.8+): only full blocks are hashed and cached
    return std::min(r.hit_tokens, most) / page_tokens_;
  }
  const auto it = groups_.find(r.prefix_group);
  if (it == groups_.end()) return 0;
  return std::min(it->second.cached, std::min(r.prefix_len, most) / page_tokens_);
}

void PrefixCache::AddRef(Group* g, int64_t pages, int64_t delta) {
  if (pages <= 0) return;
  int64_t& n = g->refs[pages];
  n += delta;
  if (n <= 0) g->refs.erase(pages);
}

void PrefixCache::Detach(int64_t id, const Group& g) {
  const int64_t spare = Unreferenced(g);
  evictable_ -= spare;
  if (spare > 0) lru_.erase({g.last_use, id});
}

void PrefixCache::Attach(int64_t id, Group* g, bool touch) {
  // radix_cache.py (v0.5): match_prefix and insert set last_access_time on the path they walk
  if (touch) g->last_use = ++clock_;
  const int64_t spare = Unreferenced(*g);
  evictable_ += spare;
  if (spare > 0) lru_.insert({g->last_use, id});
  if (g->cached == 0 && g->refs.empty()) groups_.erase(id);
}

void PrefixCache::Acquire(SimRequest* r, int64_t pages) {
  r->computed = pages * page_tokens_;
  if (r->prefix_group < 0 || pages <= 0) return;
  Group& g = groups_[r->prefix_group];
  Detach(r->prefix_group, g);
  // radix_cache.py inc_lock_ref (v0.5): the matched path is locked while the request runs;
  // block_pool.py touch (v0.8+): a hit block leaves the free queue (ref_cnt + 1)
  AddRef(&g, pages, 1);
  r->shared_pages = pages;
  r->pages = pages;
  Attach(r->prefix_group, &g, true);
}

void PrefixCache::Unacquire(SimRequest* r) {
  if (r->shared_pages > 0) {
    Group& g = groups_[r->prefix_group];
    Detach(r->prefix_group, g);
    AddRef(&g, r->shared_pages, -1);
    Attach(r->prefix_group, &g, false);
  }
  r->shared_pages = 0;
  r->pages = 0;
  r->computed = 0;
}

int64_t PrefixCache::Insert(SimRequest* r, int64_t tokens) {
  if (r->prefix_group < 0) return 0;
  const int64_t covered = std::min(tokens, r->prefix_len) / page_tokens_;
  if (covered <= r->shared_pages) return 0;
  Group& g = groups_[r->prefix_group];
  Detach(r->prefix_group, g);
  const int64_t duplicates = std::max<int64_t>(0, std::min(g.cached, covered) - r->shared_pages);
  g.cached = std::max(g.cached, covered);
  AddRef(&g, r->shared_pages, -1);
  AddRef(&g, covered, 1);
  r->shared_pages = covered;
  Attach(r->prefix_group, &g, true);
  return duplicates;
}

void PrefixCache::Release(const SimRequest& r) {
  if (r.shared_pages <= 0) return;
  Group& g = groups_[r.prefix_group];
  Detach(r.prefix_group, g);
  // radix_cache.py dec_lock_ref (v0.5) / block_pool.py free_blocks (v0.8+): unreferenced
  // pages become evictable, the most recently used last
  AddRef(&g, r.shared_pages, -1);
  Attach(r.prefix_group, &g, true);
}

void PrefixCache::KeepUnmatched(int64_t pages) {
  if (pages <= 0) return;
  unmatched_.push_back({++clock_, pages});
  evictable_ += pages;
}

int64_t PrefixCache::Evict(int64_t pages) {
  int64_t evicted = 0;
  // radix_cache.py evict (v0.5): leaves by last_access_time, oldest first;
  // block_pool.py get_new_blocks (v0.8+): the free queue's head, least recently freed
  while (evicted < pages && (!lru_.empty() || !unmatched_.empty())) {
    if (lru_.empty() || (!unmatched_.empty() && unmatched_.front().first < lru_.begin()->first)) {
      auto& [last_use, held] = unmatched_.front();
      const int64_t take = std::min(pages - evicted, held);
      held -= take;
      evictable_ -= take;
      evicted += take;
      if (held == 0) unmatched_.pop_front();
      continue;
    }
    const int64_t id = lru_.begin()->second;
    Group& g = groups_[id];
    Detach(id, g);
    const int64_t take = std::min(pages - evicted, Unreferenced(g));
    g.cached -= take;
    evicted += take;
    Attach(id, &g, false);
  }
  return evicted;
}

int64_t PrefixCache::cached_pages() const {
  int64_t n = 0;
  for (const auto& [id, g] : groups_) n += g.cached;
  return n;
}

void PrefixCache::CountAdmission(int64_t known_tokens, int64_t hit_tokens) {
  query_tokens_ += known_tokens;
  hit_tokens_ += hit_tokens;
}

PrefixHit TakeCachedPrefix(KvPool* kv, SimRequest* r) {
  PrefixHit hit;
  if (!kv->cache || r->computed != 0 || r->pages != 0) return hit;
  const int64_t pages = kv->cache->MatchPages(*r);
  if (pages <= 0) return hit;
  const int64_t evictable = kv->cache->evictable_pages();
  kv->cache->Acquire(r, pages);
  hit.tokens = r->computed;
  hit.locked_pages = evictable - kv->cache->evictable_pages();
  return hit;
}

void ReturnCachedPrefix(KvPool* kv, SimRequest* r) {
  if (kv->cache) kv->cache->Unacquire(r);
}

void CountPrefixHit(KvPool* kv, const SimRequest& r, const PrefixHit& hit) {
  if (kv->cache) kv->cache->CountAdmission(r.Known(), hit.tokens);
}

void CachePrefix(KvPool* kv, SimRequest* r, int64_t tokens) {
  if (kv->cache) kv->free_pages += kv->cache->Insert(r, tokens);
}

}  // namespace kvplan
