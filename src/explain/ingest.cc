// `kvplan ingest LOG...`: each log read whole (default rules applied, as
// explain reads it) and stored in the run history.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fmt/core.h>

#include "explain/log_file.h"
#include "kvplan/error.h"
#include "kvplan/history.h"
#include "logs/content_hash.h"
#include "logs/line_reader.h"
#include "store/run_store.h"

namespace kvplan {
namespace {

int64_t FileSize(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return 0;
  std::fseek(f, 0, SEEK_END);
  int64_t n = std::ftell(f);
  std::fclose(f);
  return n;
}

// Feeds the first `limit` bytes of the file (all of it when limit < 0) to
// `update`. Throws LogReadError when a read fails.
template <typename Update>
void ReadPrefix(const std::string& path, int64_t limit, Update update) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw LogReadError(errno, 0);
  std::vector<char> buf(size_t{1} << 16);
  int64_t done = 0;
  while (limit < 0 || done < limit) {
    size_t want = buf.size();
    if (limit >= 0) want = static_cast<size_t>(std::min<int64_t>(limit - done, want));
    ssize_t got = ::read(fd, buf.data(), want);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      int e = errno;
      ::close(fd);
      throw LogReadError(e, done);
    }
    if (got == 0) break;
    update(buf.data(), static_cast<size_t>(got));
    done += got;
  }
  ::close(fd);
}

LogContent ContentOf(const std::string& path, const LoadedLog& scanned) {
  LogContent c{path, scanned.content_hash, scanned.bytes, nullptr, nullptr};
  c.prefix_sha256 = [path](int64_t n) {
    ContentHasher h;
    ReadPrefix(path, n, [&](const char* d, size_t k) { h.Update(d, k); });
    return h.HexDigest();
  };
  c.legacy_digest = [path] {
    LegacyContentHasher h;
    ReadPrefix(path, -1, [&](const char* d, size_t k) { h.Update(d, k); });
    return h.HexDigest();
  };
  return c;
}

IngestedLog IngestOne(RunStore& store, const std::string& path, const IngestRequest& request) {
  IngestedLog log{path, "", {}, {}, ""};
  try {
    ScanOptions options;
    if (request.progress) {
      // By value: the callback outlives this block (ScanLog calls it later).
      const int64_t total = FileSize(path);
      options.progress = [&request, &path, total](int64_t bytes) {
        request.progress(path, bytes, total);
      };
    }
    LoadedLog scanned = LoadLog(path, options);
    log.content_hash = scanned.content_hash;
    log.runs = std::move(scanned.runs);
    log.outcome = store.Ingest(ContentOf(path, scanned), log.runs);
  } catch (const LogReadError& e) {
    // Part of a log is not the log: its launches would be stored incomplete,
    // and stored again in full on the next ingest.
    log.error = fmt::format("{}; nothing stored from it", e.what());
  } catch (const InputError& e) {
    log.error = e.what();
  }
  return log;
}

}  // namespace

IngestResult IngestLogs(const IngestRequest& request) {
  IngestResult result{RunStore::ResolvePath(request.db), {}, 0};
  RunStore store(result.db_path, StoreAccess::kWrite);
  if (request.opened) request.opened({result.db_path, store.created(), store.network_filesystem()});
  for (const std::string& path : request.logs) {
    result.logs.push_back(IngestOne(store, path, request));
    if (!result.logs.back().error.empty()) ++result.failed;
    if (request.done) request.done(result.logs.back());
  }
  return result;
}

}  // namespace kvplan
