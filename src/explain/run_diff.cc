#include "explain/run_diff.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/core.h>

#include "explain/decode_report.h"
#include "explain/log_file.h"
#include "explain/log_replan.h"
#include "explain/log_vllm_replan.h"
#include "explain/memory_setting.h"
#include "kvplan/diff.h"
#include "kvplan/error.h"
#include "store/run_store.h"

namespace kvplan {
namespace {

void Record(const BeforeAfter& r, SettingChange* c) {
  c->replanned = true;
  c->vllm = r.vllm;
  c->rest_a_gib = r.gib_a;
  c->rest_b_gib = r.gib_b;
  c->tokens_a = r.tokens_a;
  c->tokens_b = r.tokens_b;
  c->ok_after = r.ok_after;
  c->error_after = r.error_after;
}

BeforeAfter ReplanSglangChanges(const SglangReplanInputs& base,
                                const std::vector<SettingChange*>& changes) {
  SglangReplanInputs changed = base;
  for (const SettingChange* c : changes) ApplySglangSet(&changed, c->key, c->b);
  SglangReplanVerdict before = ReplanSglang(base), after = ReplanSglang(changed);
  return {false,        before.rest_gib, after.rest_gib, before.tokens,
          after.tokens, after.ok,        after.error};
}

// vLLM lists only non-default args: a key missing from a run that has the
// list took the default.
std::string VllmDefault(const RunRecord& r, const std::string& key) {
  if (r.engine != "vllm" || r.settings.empty()) return "";
  if (key == "gpu_memory_utilization") return "0.9";
  return "(default)";
}

bool TurnsSuccessIntoFailure(const RunRecord& a, const RunRecord& b, const SettingChange& c) {
  return a.outcome == "ok" && b.outcome == "failed" && !c.ok_after;
}

// The change alone on A's measured profile, through kvplan's vLLM model.
void ReplanVllmChange(const VllmReplanInputs& base, SettingChange* c, const RunRecord& a,
                      const RunRecord& b) {
  VllmReplanInputs changed = base;
  try {
    ApplyVllmSet(&changed, c->key, c->b);
  } catch (const InputError&) {
    return;  // not a value kvplan can re-plan: listed without an effect
  }
  VllmReplanVerdict before = ReplanVllm(base), after = ReplanVllm(changed);
  Record({true, before.kv_gib, after.kv_gib, before.tokens, after.tokens, after.ok, after.error},
         c);
  c->explains_failure = TurnsSuccessIntoFailure(a, b, *c);
}

int Rank(const SettingChange& c) {
  if (c.explains_failure) return 0;
  if (c.replanned) return 1;
  if (c.memory) return 2;
  return 3;
}

std::vector<SettingChange> ChangedSettings(const RunRecord& a, const RunRecord& b) {
  std::vector<std::string> keys;
  for (const LoggedSetting& s : a.settings) keys.push_back(s.key);
  for (const LoggedSetting& s : b.settings) {
    if (a.FindSetting(s.key) == nullptr) keys.push_back(s.key);
  }
  std::vector<SettingChange> changes;
  for (const std::string& key : keys) {
    const LoggedSetting* sa = a.FindSetting(key);
    const LoggedSetting* sb = b.FindSetting(key);
    std::string va = sa ? sa->value : "", vb = sb ? sb->value : "";
    if (va == vb) continue;
    SettingChange c;
    c.key = key;
    c.a = va.empty() ? VllmDefault(a, key) : va;
    c.b = vb.empty() ? VllmDefault(b, key) : vb;
    c.a_prov = sa ? sa->provenance : c.a.empty() ? "-" : "auto";
    c.b_prov = sb ? sb->provenance : c.b.empty() ? "-" : "auto";
    c.memory = ShapesMemory(a.engine, key) || ShapesMemory(b.engine, key);
    changes.push_back(c);
  }
  return changes;
}

// Why a memory change kvplan cannot re-plan on A's budget is left as it is, in A's
// engine's words: SGLang captures graphs out of the slack after the KV pool, vLLM
// measures them into its budget (so a changed capture changes what the log measured).
void NoteNotReplanned(bool have_budget, const std::string& why, bool vllm, SettingChange* c) {
  if (!c->memory || c->not_replanned != NotReplanned::kNo) return;
  if (!have_budget) {
    c->not_replanned = NotReplanned::kNoBudget;
    c->why = why.empty() ? (vllm ? "no vLLM budget in A" : "no SGLang budget in A") : why;
  } else if (!vllm && c->key.find("cuda_graph") != std::string::npos) {
    c->not_replanned = NotReplanned::kGraphsAfterKv;
  } else {
    c->not_replanned = NotReplanned::kChangesMeasured;
  }
}

void ReplanChanges(const RunRecord& a, const RunRecord& b, DiffResult* diff) {
  std::string why, vllm_why;
  std::optional<SglangReplanInputs> base =
      a.engine == "sglang" ? SglangReplanInputsOf(a, &why) : std::nullopt;
  std::optional<VllmReplanInputs> vllm =
      a.engine == "vllm" ? VllmReplanInputsOf(a, &vllm_why) : std::nullopt;
  std::vector<SettingChange*> replannable;
  for (SettingChange& c : diff->changes) {
    if (vllm && c.key == "gpu_memory_utilization") {
      ReplanVllmChange(*vllm, &c, a, b);
      if (c.replanned) continue;
    }
    if (vllm || !base || !SglangSettingReplannable(c.key) || c.b.empty()) {
      bool is_vllm = a.engine == "vllm";
      NoteNotReplanned(is_vllm ? vllm.has_value() : base.has_value(), is_vllm ? vllm_why : why,
                       is_vllm, &c);
      continue;
    }
    try {
      Record(ReplanSglangChanges(*base, {&c}), &c);
      replannable.push_back(&c);
      c.explains_failure = TurnsSuccessIntoFailure(a, b, c);
    } catch (const std::exception& e) {
      c.not_replanned = NotReplanned::kRefused;
      c.why = e.what();
    }
  }
  if (base && !replannable.empty()) diff->together = ReplanSglangChanges(*base, replannable);
}

// A memory key's place among the changes: its place in its engine's list (A's
// or B's, when the runs are of different engines).
size_t DiffRank(const RunRecord& a, const RunRecord& b, const std::string& key) {
  return std::min(MemorySettingRank(a.engine, key), MemorySettingRank(b.engine, key));
}

}  // namespace

DiffResult DiffRuns(const RunRecord& a, const std::string& a_name, const RunRecord& b,
                    const std::string& b_name) {
  DiffResult diff{a, b, a_name, b_name, ChangedSettings(a, b), std::nullopt, std::nullopt};
  ReplanChanges(a, b, &diff);
  std::stable_sort(diff.changes.begin(), diff.changes.end(),
                   [&](const SettingChange& x, const SettingChange& y) {
                     if (Rank(x) != Rank(y)) return Rank(x) < Rank(y);
                     if (x.memory && y.memory) return DiffRank(a, b, x.key) < DiffRank(a, b, y.key);
                     return false;
                   });
  diff.b_nothing_accepted_cause = NothingAcceptedCause(b);
  return diff;
}

namespace {

// --last-good pairs runs of the same model, GPU and engine: an empty field would match
// every other run that lacks it too, unrelated ones included.
void RequireKnownIdentity(const RunRecord& r, const std::string& path, const std::string& db) {
  std::string missing;
  if (r.model.empty()) missing += "model";
  if (r.gpu_name.empty()) missing += (missing.empty() ? "" : ", ") + std::string("GPU");
  if (r.engine.empty()) missing += (missing.empty() ? "" : ", ") + std::string("engine");
  if (missing.empty()) return;
  throw InputError(fmt::format(
      "no successful run like {} in the run history {}: the log prints no {}, and --last-good "
      "matches only on a known model, GPU and engine (diff it against a chosen log: kvplan diff "
      "A.log {})",
      path, db, missing, path));
}

}  // namespace

DiffResult DiffLogs(const DiffRequest& request) {
  const std::vector<std::string>& paths = request.logs;
  if (request.last_good) {
    if (paths.size() != 1) throw InputError("diff --last-good takes exactly one LOG");
    LoadedLog b = LoadLog(paths.front());
    const RunRecord& rb = b.runs.back();
    std::string db = RunStore::ResolvePath(request.db);
    RunStore store(db, StoreAccess::kRead);  // reading: works on a read-only store
    RequireKnownIdentity(rb, paths.front(), db);
    std::optional<StoredRun> good = store.LastGood(rb, b.content_hash);
    if (!good) {
      throw InputError(fmt::format(
          "no successful run of {} on {} (TP as in the log) in the run history {}; ingest one "
          "with `kvplan ingest`",
          rb.model.empty() ? "this model" : rb.model,
          rb.gpu_name.empty() ? "this hardware" : rb.gpu_name, db));
    }
    return DiffRuns(good->record, fmt::format("run {} ({})", good->id, good->log_path), rb,
                    paths.front());
  }
  if (paths.size() != 2) throw InputError("diff takes two logs: A.log B.log (or --last-good LOG)");
  LoadedLog a = LoadLog(paths[0], ReadOnlyScan());
  LoadedLog b = LoadLog(paths[1], ReadOnlyScan());
  return DiffRuns(a.runs.back(), paths[0], b.runs.back(), paths[1]);
}

}  // namespace kvplan
