#include "simulate/scheduler.h"

#include <algorithm>

#include "simulate/prefix_cache.h"

namespace kvplan {

int64_t KvPool::AvailablePages() const {
  return free_pages + (cache ? cache->evictable_pages() : 0);
}

bool KvPool::Grow(SimRequest* r, int64_t tokens) {
  const int64_t need = PagesFor(tokens) - r->pages;
  if (need <= 0) return true;
  if (need > AvailablePages()) return false;
  if (need > free_pages) free_pages += cache->Evict(need - free_pages);
  free_pages -= need;
  r->pages += need;
  return true;
}

void KvPool::Release(SimRequest* r) {
  int64_t own = r->pages - r->shared_pages;
  if (cache) {
    cache->Release(*r);
    // Its own whole pages of computed tokens stay cached (unmatched); the rest is free.
    const int64_t full = std::clamp<int64_t>(r->computed / page_tokens - r->shared_pages, 0, own);
    cache->KeepUnmatched(full);
    own -= full;
  }
  free_pages += own;
  r->pages = 0;
  r->shared_pages = 0;
}

void KvPool::Trim(SimRequest* r, int64_t tokens) {
  const int64_t spare = r->pages - PagesFor(tokens);
  if (spare <= 0) return;
  free_pages += spare;
  r->pages -= spare;
}

void SchedulerState::Requeue(SimRequest* r) {
  kv.Release(r);
  r->computed = 0;
  ++r->preemptions;
  ++preemptions;
  waiting.push_front(r);
}

}  // namespace kvplan
