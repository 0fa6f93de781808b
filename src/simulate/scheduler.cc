#include "simulate/scheduler.h"

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
  if (cache) cache->Release(*r);
  free_pages += r->pages - r->shared_pages;
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
