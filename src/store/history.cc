// `kvplan runs`: the run history's listing.
#include "kvplan/history.h"
#include "store/run_store.h"

namespace kvplan {

HistoryListing ListHistory(const std::string& db, const RunFilter& filter) {
  HistoryListing listing{RunStore::ResolvePath(db), filter, {}};
  RunStore store(listing.db_path, StoreAccess::kRead);
  listing.runs = store.List(filter);
  return listing;
}

std::string ForEachHistoryRun(const std::string& db, const RunFilter& filter,
                              const std::function<void(const StoredRun&)>& each) {
  std::string path = RunStore::ResolvePath(db);
  RunStore store(path, StoreAccess::kRead);
  store.ForEach(filter, each);
  return path;
}

}  // namespace kvplan
