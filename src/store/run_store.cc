// Writing and querying the run store; opening it (schema, checks) is store_open.cc.
#include <sqlite3.h>

#include <algorithm>
#include <ctime>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "kvplan/error.h"
#include "logs/run_record_json.h"
#include "store/run_store.h"
#include "store/sqlite_stmt.h"

namespace kvplan {
namespace {

// The growth rule compares logs by their first kHeadBytes first (head_sha256),
// and reads a log again only for the stored logs that pass.
constexpr int64_t kHeadBytes = 4096;

std::string NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The runs.tp column: 0 where the log names no TP, so that a run of unknown layout is never
// stored, listed or matched by --last-good as TP 1.
int64_t TpOf(const RunRecord& r) { return r.LoggedTp().value_or(0); }

// The stored TP back into a record read from the store: the rank tags' layout is not part of the
// record's JSON, the column keeps it.
void RestoreTp(int64_t stored_tp, RunRecord* r) {
  if (stored_tp > 0 && !r->LoggedTp()) r->tp_from_ranks = static_cast<int>(stored_tp);
}

void BindDecode(Stmt& s, const DecodeSummary& d) {
  const DecodeBatchFigures* common = d.MostCommon();
  s.Bind(9, d.empty() ? std::nullopt : std::optional<int64_t>(d.samples));
  s.Bind(10, common ? std::optional<int64_t>(common->running_reqs) : std::nullopt);
  s.Bind(11, common ? std::optional<double>(common->median_tok_s) : std::nullopt);
  s.Bind(12, d.mean_accept_len);
}

StoredRun RowToRun(const Stmt& s) {
  StoredRun out;
  out.id = s.Int(0);
  out.log_hash = s.Text(1);
  out.log_path = s.Text(2);
  out.ingested_at = s.Text(3);
  try {
    out.record = RunRecordFromJson(nlohmann::json::parse(s.Text(4)));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("run database: run {} is not readable: {}", out.id, e.what()));
  }
  RestoreTp(s.Int(5), &out.record);
  return out;
}

// The digest of the log's first min(bytes, kHeadBytes) bytes.
std::string HeadOf(const LogContent& log) {
  if (log.bytes <= kHeadBytes || !log.prefix_sha256) return log.sha256;
  return log.prefix_sha256(kHeadBytes);
}

constexpr const char* kUpsertRun =
    "INSERT INTO runs(log_hash, launch_index, engine, model, gpu, tp, outcome, record, "
    "decode_reports, decode_batch, decode_tok_s, decode_accept_len) "
    "VALUES(?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(log_hash, launch_index) DO UPDATE SET "
    "engine = excluded.engine, model = excluded.model, gpu = excluded.gpu, tp = excluded.tp, "
    "outcome = excluded.outcome, record = excluded.record, "
    "decode_reports = excluded.decode_reports, decode_batch = excluded.decode_batch, "
    "decode_tok_s = excluded.decode_tok_s, decode_accept_len = excluded.decode_accept_len";

}  // namespace

IngestOutcome RunStore::Ingest(const LogContent& log, const std::vector<RunRecord>& runs) {
  // Read before the write lock is taken: it may read the log again.
  std::string head = HeadOf(log);
  IngestOutcome out;
  Exec("BEGIN IMMEDIATE");
  try {
    {
      Stmt seen(db_, "SELECT 1 FROM logs WHERE hash = ?");
      seen.Bind(1, log.sha256);
      out.already_present = seen.Step();
    }
    if (!out.already_present) out.already_present = MatchLegacy(log, runs, head);
    if (!out.already_present) {
      std::optional<std::string> from = GrownFrom(log, head, &out.grown_from);
      if (from) {
        ExtendLog(*from, log, head);
      } else {
        InsertLog(log, head, static_cast<int64_t>(runs.size()));
      }
      UpsertRuns(log.sha256, runs, &out);
      if (from) {
        Stmt n(db_,
               "UPDATE logs SET runs = (SELECT count(*) FROM runs WHERE log_hash = ?1) "
               "WHERE hash = ?1");
        n.Bind(1, log.sha256);
        n.Step();
      }
    }
    Exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return out;
}

// A log stored before schema 3 is known by its legacy digest. That digest is
// not collision-resistant, so it counts only with the same length and the
// same launches (engine, model, outcome each): a log made to collide with a
// stored one is stored, not skipped. The row is re-keyed to the SHA-256.
bool RunStore::MatchLegacy(const LogContent& log, const std::vector<RunRecord>& runs,
                           const std::string& head) {
  if (!log.legacy_digest) return false;
  {
    Stmt any(db_, "SELECT 1 FROM logs WHERE digest = 'legacy128' AND bytes = ? LIMIT 1");
    any.Bind(1, log.bytes);
    if (!any.Step()) return false;
  }
  std::string legacy = log.legacy_digest();
  std::vector<std::string> stored, read;
  Stmt s(db_,
         "SELECT launch_index, engine, model, outcome FROM runs JOIN logs ON logs.hash = "
         "runs.log_hash WHERE logs.hash = ? AND logs.digest = 'legacy128' AND logs.bytes = ? "
         "ORDER BY launch_index");
  s.Bind(1, legacy);
  s.Bind(2, log.bytes);
  while (s.Step()) {
    stored.push_back(fmt::format("{}|{}|{}|{}", s.Int(0), s.Text(1), s.Text(2), s.Text(3)));
  }
  for (const RunRecord& r : runs) {
    read.push_back(fmt::format("{}|{}|{}|{}", r.launch_index, r.engine, r.model, r.outcome));
  }
  if (stored.empty() || stored != read) return false;
  Stmt rekey_runs(db_, "UPDATE runs SET log_hash = ? WHERE log_hash = ?");
  rekey_runs.Bind(1, log.sha256);
  rekey_runs.Bind(2, legacy);
  rekey_runs.Step();
  Stmt rekey(db_, "UPDATE logs SET hash = ?, digest = 'sha256', head_sha256 = ? WHERE hash = ?");
  rekey.Bind(1, log.sha256);
  rekey.Bind(2, head);
  rekey.Bind(3, legacy);
  rekey.Step();
  return true;
}

// The growth rule: a stored log whose whole content is the start of `log`
// (same first `bytes` bytes, compared by SHA-256) is the same file, written
// further since. The longest such log is the one `log` grew from.
std::optional<std::string> RunStore::GrownFrom(const LogContent& log, const std::string& head,
                                               std::string* from_path) const {
  if (!log.prefix_sha256) return std::nullopt;
  Stmt s(db_,
         "SELECT hash, bytes, path FROM logs WHERE digest = 'sha256' AND bytes < ?1 AND "
         "(head_sha256 = ?2 OR bytes < ?3) ORDER BY bytes DESC");
  s.Bind(1, log.bytes);
  s.Bind(2, head);
  s.Bind(3, kHeadBytes);
  while (s.Step()) {
    if (s.Int(1) <= 0 || log.prefix_sha256(s.Int(1)) != s.Text(0)) continue;
    *from_path = s.Text(2);
    return s.Text(0);
  }
  return std::nullopt;
}

void RunStore::InsertLog(const LogContent& log, const std::string& head, int64_t runs) {
  Stmt s(db_,
         "INSERT INTO logs(hash, path, bytes, runs, ingested_at, digest, head_sha256) "
         "VALUES(?,?,?,?,?,'sha256',?)");
  s.Bind(1, log.sha256);
  s.Bind(2, log.path);
  s.Bind(3, log.bytes);
  s.Bind(4, runs);
  s.Bind(5, NowUtc());
  s.Bind(6, head);
  s.Step();
}

// The stored log becomes `log`: same row, its runs re-keyed (ids kept).
void RunStore::ExtendLog(const std::string& old_hash, const LogContent& log,
                         const std::string& head) {
  Stmt runs(db_, "UPDATE runs SET log_hash = ? WHERE log_hash = ?");
  runs.Bind(1, log.sha256);
  runs.Bind(2, old_hash);
  runs.Step();
  Stmt s(db_,
         "UPDATE logs SET hash = ?, path = ?, bytes = ?, ingested_at = ?, head_sha256 = ? "
         "WHERE hash = ?");
  s.Bind(1, log.sha256);
  s.Bind(2, log.path);
  s.Bind(3, log.bytes);
  s.Bind(4, NowUtc());
  s.Bind(5, head);
  s.Bind(6, old_hash);
  s.Step();
}

void RunStore::UpsertRuns(const std::string& log_hash, const std::vector<RunRecord>& runs,
                          IngestOutcome* out) {
  int64_t before = 0;
  {
    Stmt n(db_, "SELECT count(*) FROM runs WHERE log_hash = ?");
    n.Bind(1, log_hash);
    if (n.Step()) before = n.Int(0);
  }
  Stmt run(db_, kUpsertRun);
  for (const RunRecord& r : runs) {
    run.Reset();
    run.Bind(1, log_hash);
    run.Bind(2, static_cast<int64_t>(r.launch_index));
    run.Bind(3, r.engine);
    run.Bind(4, r.model);
    run.Bind(5, r.gpu_name);
    run.Bind(6, TpOf(r));
    run.Bind(7, r.outcome);
    run.Bind(8, DumpJson(ToJson(r)));
    BindDecode(run, r.decode);
    run.Step();
  }
  Stmt n(db_, "SELECT count(*) FROM runs WHERE log_hash = ?");
  n.Bind(1, log_hash);
  int64_t after = n.Step() ? n.Int(0) : before;
  out->runs_stored = static_cast<int>(after - before);
  out->runs_updated = static_cast<int>(runs.size()) - out->runs_stored;
}

#define KVPLAN_RUNS_WHERE                                       \
  "WHERE (?1 = '' OR instr(lower(runs.model), lower(?1)) > 0) " \
  "AND (?2 = 0 OR runs.outcome = 'failed') ORDER BY runs.id"

namespace {

// The table's figures of each run, extracted by SQLite (one JSON parse per
// row, cached across the json_* calls of that row).
constexpr const char* kListTable =
    "SELECT runs.id, runs.log_hash, logs.path, logs.ingested_at, runs.engine, runs.model, "
    "runs.gpu, runs.outcome, runs.decode_reports, runs.decode_batch, runs.decode_tok_s, "
    "json_extract(runs.record, '$.started_at'), "
    "json_extract(runs.record, '$.figures.kv_tokens'), "
    "json_extract(runs.record, '$.figures.gpu_kv_cache_tokens'), "
    "(SELECT json_group_array(json_array(json_extract(value, '$.key'), "
    "json_extract(value, '$.value'))) FROM json_each(runs.record, '$.settings') "
    "WHERE json_extract(value, '$.key') IN ('tp_size', 'tensor_parallel_size', "
    "'mem_fraction_static', 'gpu_memory_utilization')), runs.tp "
    "FROM runs JOIN logs ON logs.hash = runs.log_hash " KVPLAN_RUNS_WHERE;

StoredRun TableRowToRun(const Stmt& s) {
  StoredRun out;
  out.id = s.Int(0);
  out.log_hash = s.Text(1);
  out.log_path = s.Text(2);
  out.ingested_at = s.Text(3);
  RunRecord& r = out.record;
  r.engine = s.Text(4);
  r.model = s.Text(5);
  r.gpu_name = s.Text(6);
  r.outcome = s.Text(7);
  // The columns BindDecode wrote: the sample count and the most common batch.
  r.decode.samples = s.OptInt(8).value_or(0);
  if (s.OptInt(9) && s.OptDouble(10)) {
    r.decode.batches.push_back({*s.OptInt(9), 0, *s.OptDouble(10), std::nullopt});
  }
  r.started_at = s.Text(11);
  if (std::optional<double> t = s.OptDouble(12)) r.figures["kv_tokens"] = *t;
  if (std::optional<double> t = s.OptDouble(13)) r.figures["gpu_kv_cache_tokens"] = *t;
  const nlohmann::json settings = nlohmann::json::parse(s.Text(14), nullptr, false);
  if (settings.is_array()) {
    for (const nlohmann::json& kv : settings) {
      if (kv.size() == 2 && kv[0].is_string() && kv[1].is_string()) {
        r.settings.push_back({kv[0].get<std::string>(), kv[1].get<std::string>(), "", ""});
      }
    }
  }
  RestoreTp(s.Int(15), &r);
  return out;
}

}  // namespace

void RunStore::ForEach(const RunFilter& filter,
                       const std::function<void(const StoredRun&)>& each) const {
  Stmt s(db_, filter.table_only ? kListTable
                                : "SELECT runs.id, runs.log_hash, logs.path, logs.ingested_at, "
                                  "runs.record, runs.tp FROM runs "
                                  "JOIN logs ON logs.hash = runs.log_hash " KVPLAN_RUNS_WHERE);
  s.Bind(1, filter.model);
  s.Bind(2, static_cast<int64_t>(filter.failed_only ? 1 : 0));
  while (s.Step()) each(filter.table_only ? TableRowToRun(s) : RowToRun(s));
}
#undef KVPLAN_RUNS_WHERE

std::vector<StoredRun> RunStore::List(const RunFilter& filter) const {
  std::vector<StoredRun> out;
  ForEach(filter, [&out](const StoredRun& run) { out.push_back(run); });
  return out;
}

std::optional<StoredRun> RunStore::LastGood(const RunRecord& like,
                                            const std::string& exclude_hash) const {
  Stmt s(db_,
         "SELECT runs.id, runs.log_hash, logs.path, logs.ingested_at, runs.record, runs.tp "
         "FROM runs JOIN logs ON logs.hash = runs.log_hash "
         "WHERE runs.outcome = 'ok' AND runs.model = ? AND runs.gpu = ? AND runs.tp = ? "
         "AND runs.engine = ? AND runs.log_hash <> ? ORDER BY runs.id DESC LIMIT 1");
  s.Bind(1, like.model);
  s.Bind(2, like.gpu_name);
  s.Bind(3, TpOf(like));
  s.Bind(4, like.engine);
  s.Bind(5, exclude_hash);
  if (!s.Step()) return std::nullopt;
  return RowToRun(s);
}

int64_t RunStore::CountRuns() const {
  Stmt s(db_, "SELECT count(*) FROM runs");
  s.Step();
  return s.Int(0);
}

int64_t RunStore::CountLogs() const {
  Stmt s(db_, "SELECT count(*) FROM logs");
  s.Step();
  return s.Int(0);
}

}  // namespace kvplan
