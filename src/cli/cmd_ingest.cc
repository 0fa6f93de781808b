// `kvplan ingest LOG...`: reads start-up logs into the run history.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/verbs.h"
#include "kvplan/history.h"

namespace kvplan::cli {
namespace {

// A one-line progress bar on stderr, only when stderr is a terminal and the
// log is large enough to wait for.
class Progress {
 public:
  void Update(const std::string& name, int64_t bytes, int64_t total) {
    if (::isatty(2) != 1 || total <= (int64_t{16} << 20)) return;
    shown_ = true;
    int pct = total > 0 ? static_cast<int>(100 * bytes / total) : 0;
    int filled = pct * 30 / 100;
    fmt::print(stderr, "\r{:.40} [{:<30}] {:3d}% {:.0f} MiB", name, std::string(filled, '#'), pct,
               static_cast<double>(bytes) / (1 << 20));
    std::fflush(stderr);
  }
  void Done() {
    if (shown_) fmt::print(stderr, "\r{:80}\r", "");
    shown_ = false;
  }

 private:
  bool shown_ = false;
};

}  // namespace

void RegisterIngestVerb(Command& app) {
  auto* cmd = app.add_subcommand(
      "ingest", "Read start-up logs into the run history (idempotent by content hash)");
  auto request = std::make_shared<IngestRequest>();
  cmd->add_option("logs", request->logs, "SGLang or vLLM logs")->required();
  cmd->add_option("--db", request->db, "run database (default $XDG_DATA_HOME/kvplan/runs.db)");
  cmd->callback([request] {
    auto progress = std::make_shared<Progress>();
    IngestRequest r = *request;
    r.progress = [progress](const std::string& path, int64_t bytes, int64_t total) {
      progress->Update(path, bytes, total);
    };
    r.opened = [](const OpenedStore& store) {
      fmt::print("{}", RenderOpenedStoreText(store));
      fmt::print(stderr, "{}", RenderStoreWarningText(store));
    };
    r.done = [progress](const IngestedLog& log) {
      progress->Done();
      if (log.error.empty()) {
        fmt::print("{}", RenderIngestedLogText(log));
      } else {
        std::fflush(stdout);  // keeps the lines in order when both go to one file
        fmt::print(stderr, "kvplan: error: {}", RenderIngestedLogText(log));
      }
    };
    IngestResult result = IngestLogs(r);
    if (result.failed > 0) {
      // Every log was read and the good ones stored; exit 1 says some were not
      // (2 stays for a command that could not run at all).
      throw VerbExitCode{1};
    }
  });
}

}  // namespace kvplan::cli
