#include "store/run_store.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <nlohmann/json.hpp>

#include "kvplan/error.h"
#include "logs/content_hash.h"
#include "logs/log_scanner.h"
#include "logs/run_record_json.h"
#include "store/sqlite_stmt.h"
#include "testing/input_error.h"
#include "testing/scratch_dir.h"
#include "testing/sqlite_rows.h"

namespace kvplan {
namespace {

RunRecord MakeRun(const std::string& model, const std::string& outcome, int index = 0) {
  RunRecord r;
  r.engine = "sglang";
  r.model = model;
  r.gpu_name = "NVIDIA H100 80GB HBM3";
  r.outcome = outcome;
  r.launch_index = index;
  r.settings.push_back({"tp_size", "2", "user", "set on the launch command line (--tp)"});
  r.timeline.push_back({"TP0", "t", std::string(kStageLoadWeightEnd), 21.5, 50.25, 7});
  r.figures["kv_tokens"] = 1234;
  return r;
}

TEST(RunStore, IngestIsIdempotentByContentHash) {
  testing::ScratchDir dir;
  RunStore store(dir.File("runs.db"));
  EXPECT_TRUE(store.created());
  std::vector<RunRecord> runs = {MakeRun("m", "ok", 0), MakeRun("m", "failed", 1)};
  IngestOutcome first = store.Ingest("a.log", "hash-a", 100, runs);
  EXPECT_FALSE(first.already_present);
  EXPECT_EQ(first.runs_stored, 2);
  IngestOutcome again = store.Ingest("copy-of-a.log", "hash-a", 100, runs);
  EXPECT_TRUE(again.already_present);
  EXPECT_EQ(again.runs_stored, 0);
  EXPECT_EQ(store.CountRuns(), 2);
  EXPECT_EQ(store.CountLogs(), 1);
}

TEST(RunStore, RecordsRoundTripAndFiltersApply) {
  testing::ScratchDir dir;
  RunStore store(dir.File("runs.db"));
  store.Ingest("a.log", "h1", 1, {MakeRun("Qwen/Qwen3-8B", "ok")});
  store.Ingest("b.log", "h2", 1, {MakeRun("meta-llama/Llama-3.1-8B", "failed")});
  std::vector<StoredRun> all = store.List({});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].record.model, "Qwen/Qwen3-8B");
  EXPECT_DOUBLE_EQ(*all[0].record.timeline[0].avail_gib, 21.5);
  EXPECT_DOUBLE_EQ(*all[0].record.Figure("kv_tokens"), 1234);
  EXPECT_EQ(all[1].log_path, "b.log");
  EXPECT_EQ(store.List({"qwen3", false}).size(), 1u);
  std::vector<StoredRun> failed = store.List({"", true});
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].record.model, "meta-llama/Llama-3.1-8B");
}

TEST(RunStore, LastGoodIsTheNewestSuccessOnTheSameModelAndHardware) {
  testing::ScratchDir dir;
  RunStore store(dir.File("runs.db"));
  store.Ingest("old.log", "h1", 1, {MakeRun("m", "ok")});
  store.Ingest("new.log", "h2", 1, {MakeRun("m", "ok")});
  store.Ingest("bad.log", "h3", 1, {MakeRun("m", "failed")});
  RunRecord other_gpu = MakeRun("m", "ok");
  other_gpu.gpu_name = "NVIDIA B200";
  store.Ingest("b200.log", "h4", 1, {other_gpu});
  std::optional<StoredRun> good = store.LastGood(MakeRun("m", "failed"), "h3");
  ASSERT_TRUE(good);
  EXPECT_EQ(good->log_path, "new.log");
  EXPECT_FALSE(store.LastGood(MakeRun("other-model", "failed"), ""));
  std::optional<StoredRun> older = store.LastGood(MakeRun("m", "ok"), "h2");
  ASSERT_TRUE(older);
  EXPECT_EQ(older->log_path, "old.log");
}

// Several threads, each with its own connection, ingest at once: every
// distinct log is stored exactly once, with all its runs.
TEST(RunStore, ConcurrentIngestsLoseNothingAndDuplicateNothing) {
  testing::ScratchDir dir;
  std::string db = dir.File("runs.db");
  constexpr int kThreads = 6, kLogsPerThread = 8;
  std::vector<std::thread> threads;
  std::vector<std::string> errors(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        RunStore store(db);
        for (int i = 0; i < kLogsPerThread; ++i) {
          // Half the logs are shared by all threads (same hash), half are this thread's own.
          std::string hash = i % 2 == 0 ? "shared-" + std::to_string(i)
                                        : "own-" + std::to_string(t) + "-" + std::to_string(i);
          store.Ingest(hash + ".log", hash, 10, {MakeRun("m", "ok", 0), MakeRun("m", "ok", 1)});
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  RunStore store(db);
  int64_t logs = kLogsPerThread / 2 + kThreads * (kLogsPerThread / 2);
  EXPECT_EQ(store.CountLogs(), logs);
  EXPECT_EQ(store.CountRuns(), 2 * logs);
}

TEST(RunStore, NotADatabaseIsAClearError) {
  testing::ScratchDir dir;
  std::string path = dir.File("junk.db");
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs("this is not an sqlite database, just text padding padding padding padding", f);
  std::fclose(f);
  EXPECT_THROW(RunStore store(path), InputError);
}

// A database as kvplan wrote it before schema 2 (no decode columns, no
// user_version), with one run whose record has no "decode" key.
void WriteSchema1Database(const std::string& path) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const char* sql = R"sql(
CREATE TABLE logs(hash TEXT PRIMARY KEY, path TEXT NOT NULL, bytes INTEGER NOT NULL,
  runs INTEGER NOT NULL, ingested_at TEXT NOT NULL);
CREATE TABLE runs(id INTEGER PRIMARY KEY, log_hash TEXT NOT NULL REFERENCES logs(hash),
  launch_index INTEGER NOT NULL, engine TEXT NOT NULL, model TEXT NOT NULL, gpu TEXT NOT NULL,
  tp INTEGER NOT NULL, outcome TEXT NOT NULL, record TEXT NOT NULL,
  UNIQUE(log_hash, launch_index));
CREATE INDEX runs_by_model ON runs(model, gpu, tp, outcome);
INSERT INTO logs VALUES('old-hash', 'old.log', 10, 1, '2026-01-01T00:00:00Z');
)sql";
  ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
  nlohmann::json record = ToJson(MakeRun("old-model", "ok"));
  ASSERT_FALSE(record.contains("decode"));
  std::string insert =
      "INSERT INTO runs(log_hash, launch_index, engine, model, gpu, tp, outcome, record) VALUES("
      "'old-hash', 0, 'sglang', 'old-model', 'NVIDIA H100 80GB HBM3', 2, 'ok', '" +
      record.dump() + "')";
  ASSERT_EQ(sqlite3_exec(db, insert.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

// Rows of `sql` as text, "|"-joined columns, NULL as "NULL".
std::vector<std::string> Query(const std::string& path, const std::string& sql) {
  return kvplan::testing::QueryRows(path, sql);
}

RunRecord WithDecode(RunRecord r, double tok_s, std::optional<double> accept) {
  DecodeSummarizer d;
  for (int i = 0; i < 3; ++i) {
    DecodeSample s;
    s.running_reqs = 1;
    s.gen_tok_s = tok_s + i;  // tok_s, tok_s + 1, tok_s + 2: median tok_s + 1
    s.accept_len = accept;
    d.Add(s, "TP0");
  }
  r.decode = d.Summary();
  return r;
}

TEST(RunStore, Schema1DatabaseIsMigratedInPlaceKeepingItsRuns) {
  testing::ScratchDir dir;
  std::string path = dir.File("old.db");
  WriteSchema1Database(path);
  {
    RunStore store(path);
    std::vector<StoredRun> runs = store.List({});
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].record.model, "old-model");
    EXPECT_EQ(runs[0].log_path, "old.log");
    EXPECT_TRUE(runs[0].record.decode.empty());
    EXPECT_DOUBLE_EQ(*runs[0].record.Figure("kv_tokens"), 1234);
    store.Ingest("new.log", "new-hash", 20, {WithDecode(MakeRun("new-model", "ok"), 81, 2.25)});
  }
  EXPECT_EQ(Query(path, "PRAGMA user_version"), std::vector<std::string>{"3"});
  EXPECT_EQ(Query(path,
                  "SELECT model, decode_reports, decode_batch, decode_tok_s, decode_accept_len "
                  "FROM runs ORDER BY id"),
            (std::vector<std::string>{"old-model|NULL|NULL|NULL|NULL", "new-model|3|1|82.0|2.25"}));
  // Opening again changes nothing; the decode summary comes back with the record.
  RunStore again(path);
  std::vector<StoredRun> runs = again.List({});
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_NE(runs[1].record.decode.Batch(1), nullptr);
  EXPECT_DOUBLE_EQ(runs[1].record.decode.Batch(1)->median_tok_s, 82);
  EXPECT_DOUBLE_EQ(*runs[1].record.decode.mean_accept_len, 2.25);
  EXPECT_EQ(
      Query(path, "SELECT count(*) FROM pragma_table_info('runs') WHERE name LIKE 'decode_%'"),
      std::vector<std::string>{"4"});
}

// Several processes' first open of an old database at once: each adds the
// columns only if no one did yet, and every one can ingest afterwards.
TEST(RunStore, ConcurrentFirstOpensOfAnOldDatabaseMigrateOnce) {
  testing::ScratchDir dir;
  std::string path = dir.File("old.db");
  WriteSchema1Database(path);
  constexpr int kThreads = 6;
  std::vector<std::thread> threads;
  std::vector<std::string> errors(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        RunStore store(path);
        store.Ingest("t.log", "hash-" + std::to_string(t), 1,
                     {WithDecode(MakeRun("m", "ok"), 50.0 + t, std::nullopt)});
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  EXPECT_EQ(Query(path, "SELECT count(*), count(decode_tok_s) FROM runs"),
            std::vector<std::string>{"7|6"});
}

// A database as kvplan wrote it at schema 2: logs keyed by the 128-bit legacy digest.
void WriteSchema2Database(const std::string& path, const std::string& legacy_hash, int64_t bytes) {
  WriteSchema1Database(path);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string sql = fmt::format(
      "UPDATE logs SET hash = '{0}', bytes = {1}; UPDATE runs SET log_hash = '{0}'; "
      "PRAGMA user_version = 2;",
      legacy_hash, bytes);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

// A log in memory as ingest sees a file: its digests, read again on demand.
LogContent ContentOf(const std::string& path, const std::string& text) {
  LogContent c{path, Sha256Hex(text), static_cast<int64_t>(text.size()), nullptr, nullptr};
  c.prefix_sha256 = [text](int64_t n) { return Sha256Hex(text.substr(0, n)); };
  c.legacy_digest = [text] {
    LegacyContentHasher h;
    h.Update(text.data(), text.size());
    return h.HexDigest();
  };
  return c;
}

std::string LegacyOf(const std::string& text) {
  LegacyContentHasher h;
  h.Update(text.data(), text.size());
  return h.HexDigest();
}

TEST(RunStore, LogsIngestedBeforeSchema3StayIngested) {
  testing::ScratchDir dir;
  std::string path = dir.File("old.db");
  std::string text = "the old log's bytes\n";
  WriteSchema2Database(path, LegacyOf(text), static_cast<int64_t>(text.size()));
  RunStore store(path);
  IngestOutcome again = store.Ingest(ContentOf("old.log", text), {MakeRun("old-model", "ok")});
  EXPECT_TRUE(again.already_present);
  EXPECT_EQ(store.CountRuns(), 1);
  // Re-keyed to the SHA-256: found directly from now on, the run kept.
  EXPECT_EQ(Query(path, fmt::format("SELECT hash = '{}', digest FROM logs", Sha256Hex(text))),
            std::vector<std::string>{"1|sha256"});
  EXPECT_EQ(
      Query(path, fmt::format("SELECT count(*) FROM runs WHERE log_hash = '{}'", Sha256Hex(text))),
      std::vector<std::string>{"1"});
}

// The legacy digest is not collision-resistant: a log that shares it with a
// stored one but has other launches (a failed run made to look like an ok
// one) is stored, not skipped.
TEST(RunStore, ALegacyDigestCollisionIsStoredNotSkipped) {
  testing::ScratchDir dir;
  std::string path = dir.File("old.db");
  std::string text = "a failed launch\n";
  WriteSchema2Database(path, LegacyOf(text), static_cast<int64_t>(text.size()));
  RunStore store(path);
  IngestOutcome out = store.Ingest(ContentOf("failed.log", text), {MakeRun("old-model", "failed")});
  EXPECT_FALSE(out.already_present);
  EXPECT_EQ(out.runs_stored, 1);
  EXPECT_EQ(store.CountRuns(), 2);
}

// The growth rule: a log whose first bytes are exactly a stored log is that
// log written further; its runs are updated (ids kept) and new launches added.
TEST(RunStore, AGrownLogUpdatesItsRunsInsteadOfDuplicatingThem) {
  testing::ScratchDir dir;
  RunStore store(dir.File("runs.db"));
  std::string start(5000, 'x');  // longer than the head compared first
  RunRecord starting = MakeRun("m", "starting", 0);
  store.Ingest(ContentOf("a.log", start), {starting});
  IngestOutcome newline = store.Ingest(ContentOf("a.log", start + "\n"), {MakeRun("m", "ok", 0)});
  EXPECT_FALSE(newline.already_present);
  EXPECT_EQ(newline.grown_from, "a.log");
  EXPECT_EQ(newline.runs_updated, 1);
  EXPECT_EQ(newline.runs_stored, 0);
  IngestOutcome relaunch = store.Ingest(ContentOf("a.log", start + "\nmore\n"),
                                        {MakeRun("m", "ok", 0), MakeRun("m", "failed", 1)});
  EXPECT_EQ(relaunch.runs_updated, 1);
  EXPECT_EQ(relaunch.runs_stored, 1);
  EXPECT_EQ(store.CountLogs(), 1);
  std::vector<StoredRun> runs = store.List({});
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].id, 1);
  EXPECT_EQ(runs[0].record.outcome, "ok");
  EXPECT_EQ(runs[1].record.outcome, "failed");
  // The same length of other bytes is another log; so is a short log's edit.
  std::string other = start;
  other[10] = 'y';
  EXPECT_EQ(store.Ingest(ContentOf("b.log", other + "\n\n\n"), {MakeRun("m", "ok")}).grown_from,
            "");
  store.Ingest(ContentOf("s.log", "short"), {MakeRun("s", "ok")});
  EXPECT_EQ(store.Ingest(ContentOf("s.log", "shorT!"), {MakeRun("s", "ok")}).grown_from, "");
  EXPECT_EQ(store.Ingest(ContentOf("s.log", "short!"), {MakeRun("s", "ok")}).grown_from, "s.log");
  EXPECT_EQ(store.CountLogs(), 4);
}

TEST(RunStore, RefusesAnInMemoryDatabase) {
  EXPECT_THROW(RunStore(":memory:"), InputError);
  EXPECT_THROW(RunStore("file::memory:?cache=shared"), InputError);
  EXPECT_THROW(RunStore(""), InputError);
}

TEST(RunStore, CreatesAStoreOnlyInAnExistingDirectory) {
  testing::ScratchDir dir;
  EXPECT_THROW(RunStore(dir.File("typo/runs.db")), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.File("typo")));
  EXPECT_THROW(RunStore(dir.File("missing.db"), StoreAccess::kRead), InputError);
  EXPECT_FALSE(std::filesystem::exists(dir.File("missing.db")));
  { RunStore created(dir.File("runs.db")); }
  RunStore reopened(dir.File("runs.db"));
  EXPECT_FALSE(reopened.created());
}

// The bytes of the file at `path`.
void ExecOn(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sql;
  sqlite3_close(db);
}

// Refused stores are left byte for byte as they were.
void ExpectRefusedUntouched(const std::string& path, const std::string& why) {
  std::string before = testing::FileBytes(path);
  const std::string what = testing::InputErrorOf([&] { RunStore store(path); });
  EXPECT_NE(what.find(why), std::string::npos) << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  EXPECT_EQ(testing::FileBytes(path), before);
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST(RunStore, RefusesANewerForeignOrDamagedDatabaseWithoutWriting) {
  testing::ScratchDir dir;
  std::string newer = dir.File("newer.db");
  { RunStore store(newer); }
  ExecOn(newer, "PRAGMA journal_mode=DELETE; PRAGMA user_version = 9");
  ExpectRefusedUntouched(newer, "newer kvplan");
  std::string foreign = dir.File("foreign.db");
  ExecOn(foreign, "CREATE TABLE notes(x)");
  ExpectRefusedUntouched(foreign, "not a kvplan run store");
  std::string other_app = dir.File("app.db");
  ExecOn(other_app, "PRAGMA application_id = 42");
  ExpectRefusedUntouched(other_app, "another application");
  std::string damaged = dir.File("damaged.db");
  {
    RunStore store(damaged);
    for (int i = 0; i < 40; ++i) {
      store.Ingest("l.log", fmt::format("h{}", i), 1, {MakeRun(std::string(300, 'm'), "ok")});
    }
  }
  ExecOn(damaged, "PRAGMA journal_mode=DELETE");
  std::string bytes = testing::FileBytes(damaged);
  ASSERT_GT(bytes.size(), 4u * 4096);
  std::fill(bytes.begin() + 2 * 4096, bytes.begin() + 3 * 4096, 'Z');  // a garbage page
  std::ofstream(damaged, std::ios::binary | std::ios::trunc) << bytes;
  ExpectRefusedUntouched(damaged, "damaged");
}

TEST(RunStore, DefaultPathFollowsXdgDataHome) {
  const char* old = std::getenv("XDG_DATA_HOME");
  std::string saved = old ? old : "";
  ::setenv("XDG_DATA_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(RunStore::DefaultPath(), "/tmp/xdg-test/kvplan/runs.db");
  ::unsetenv("XDG_DATA_HOME");
  ::setenv("HOME", std::getenv("HOME") ? std::getenv("HOME") : "/root", 1);
  EXPECT_NE(RunStore::DefaultPath().find("/.local/share/kvplan/runs.db"), std::string::npos);
  if (old) ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
}

// The statements ingest, runs and diff --last-good prepare do not grow with
// the runs of a log or of the store: a query per run (or per rank) would make
// a 10,000-run store quadratic. Counted, not timed.
int64_t StatementsFor(int runs_per_log, int logs) {
  testing::ScratchDir dir;
  RunStore store(dir.File("runs.db"));
  const int64_t before = Stmt::Prepared();
  for (int l = 0; l < logs; ++l) {
    std::vector<RunRecord> runs;
    for (int i = 0; i < runs_per_log; ++i) runs.push_back(MakeRun("m", "ok", i));
    store.Ingest(fmt::format("{}.log", l), fmt::format("hash-{}", l), 100 + l, runs);
  }
  const int64_t ingest = Stmt::Prepared() - before;
  RunFilter table;
  table.table_only = true;
  EXPECT_EQ(store.List(table).size(), static_cast<size_t>(runs_per_log * logs));
  EXPECT_EQ(store.List({}).size(), static_cast<size_t>(runs_per_log * logs));
  EXPECT_TRUE(store.LastGood(MakeRun("m", "ok"), "").has_value());
  return (Stmt::Prepared() - before - ingest) * 1000 + ingest / logs;
}

TEST(RunStore, StatementsDoNotGrowWithTheRuns) {
  EXPECT_EQ(StatementsFor(3, 2), StatementsFor(300, 2));
  EXPECT_EQ(StatementsFor(3, 2), StatementsFor(3, 40));
}

// The table-only listing reads the same figures the full record holds.
TEST(RunStore, TableOnlyListingHoldsTheTableFigures) {
  testing::ScratchDir dir;
  RunStore store(dir.File("runs.db"));
  RunRecord r = MakeRun("m", "ok");
  r.started_at = "2026-03-02 14:00:01";
  r.settings.push_back({"mem_fraction_static", "0.85", "user", ""});
  r.decode.samples = 13;
  r.decode.batches.push_back({4, 3, 305.21, std::nullopt});
  store.Ingest("a.log", "hash-a", 100, {r});
  RunFilter table;
  table.table_only = true;
  const std::vector<StoredRun> rows = store.List(table);
  ASSERT_EQ(rows.size(), 1u);
  const RunRecord& t = rows[0].record;
  EXPECT_EQ(t.started_at, r.started_at);
  EXPECT_EQ(t.engine, r.engine);
  EXPECT_EQ(t.model, r.model);
  EXPECT_EQ(t.gpu_name, r.gpu_name);
  EXPECT_EQ(t.outcome, r.outcome);
  EXPECT_EQ(t.Figure("kv_tokens"), r.Figure("kv_tokens"));
  ASSERT_NE(t.FindSetting("tp_size"), nullptr);
  EXPECT_EQ(t.FindSetting("tp_size")->value, "2");
  ASSERT_NE(t.FindSetting("mem_fraction_static"), nullptr);
  EXPECT_EQ(t.FindSetting("mem_fraction_static")->value, "0.85");
  ASSERT_NE(t.decode.MostCommon(), nullptr);
  EXPECT_EQ(t.decode.MostCommon()->running_reqs, 4);
  EXPECT_DOUBLE_EQ(t.decode.MostCommon()->median_tok_s, 305.21);
  EXPECT_EQ(t.decode.samples, 13);
  EXPECT_EQ(rows[0].log_path, "a.log");
}

}  // namespace
}  // namespace kvplan
