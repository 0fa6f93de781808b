#include "logs/run_builder.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

namespace kvplan {
namespace {

constexpr size_t kMaxTracebackLines = 60;
constexpr size_t kMaxKeptText = 4096;  // a failure message or traceback line, as kept
// Memory lines kept per launch: 2,000 ranks x 8 stages, past any deployment,
// where 2 million repeated lines took 1.2 GB. The rest are noted, not kept.
constexpr size_t kMaxTimelinePoints = 16384;

std::string Kept(std::string_view text) { return std::string(text.substr(0, kMaxKeptText)); }

// No engine prints a figure beyond 1e15 (tokens, bytes of KV in GiB, seconds): larger
// or non-finite values come from garbled lines and would overflow the arithmetic.
bool Plausible(double v) { return std::isfinite(v) && std::fabs(v) <= 1e15; }

// The number after `tag` ("TP", "DP", "PP", "rank=") where it starts a word of
// `rank` ("DP1 TP2", "EngineCore_DP0", "VllmWorker rank=3"); -1 when absent.
int RankAfter(std::string_view rank, std::string_view tag) {
  for (size_t at = rank.find(tag); at != std::string_view::npos; at = rank.find(tag, at + 1)) {
    if (at > 0 && rank[at - 1] != ' ' && rank[at - 1] != '_') continue;
    size_t i = at + tag.size();
    int n = 0;
    size_t digits = 0;
    while (i < rank.size() && rank[i] >= '0' && rank[i] <= '9' && digits < 6) {
      n = n * 10 + (rank[i++] - '0');
      ++digits;
    }
    if (digits > 0) return n;
  }
  return -1;
}

}  // namespace

void RunBuilder::NoteRankTags(std::string_view rank) {
  if (rank == last_rank_) return;  // most lines repeat the last rank: skip the parse
  last_rank_.assign(rank.substr(0, 96));
  int tp = RankAfter(rank, "TP"), dp = RankAfter(rank, "DP"), pp = RankAfter(rank, "PP");
  if (tp < 0) tp = RankAfter(rank, "rank=");  // vLLM's workers number the ranks of one engine
  RunRecord& r = current_;
  auto seen = [](uint64_t* mask, int rank) {
    if (rank >= 0 && rank < 64) *mask |= uint64_t{1} << rank;
  };
  seen(&r.tp_ranks_seen, tp);
  seen(&r.dp_ranks_seen, dp);
  seen(&r.pp_ranks_seen, pp);
  r.tp_from_ranks = std::max(r.tp_from_ranks, tp + 1);
  r.dp_from_ranks = std::max(r.dp_from_ranks, dp + 1);
  r.pp_from_ranks = std::max(r.pp_from_ranks, pp + 1);
}

void RunBuilder::BeginLine(const LogLine& line, int64_t line_number) {
  line_ = line;
  line_number_ = line_number;
  if (!line.rank.empty()) NoteRankTags(line.rank);
}

bool RunBuilder::HasLaunchContent() const {
  const RunRecord& r = current_;
  return !r.settings.empty() || !r.timeline.empty() || !r.figures.empty() ||
         r.outcome != "incomplete" || !decode_.empty();
}

bool RunBuilder::NothingRead() const {
  const RunRecord& r = current_;
  return done_.empty() && r.first_line == 0 && r.launch_command.empty() && r.gpu_name.empty() &&
         r.engine.empty() && r.traceback.empty() && !HasLaunchContent();
}

void RunBuilder::CloseCurrent() {
  if (current_.first_line == 0 && current_.launch_command.empty() && current_.gpu_name.empty()) {
    return;
  }
  // A launch that printed only its version or model (an excerpt holding the engine's config
  // line) is still a launch; an engine line alone is not.
  if (!HasLaunchContent() && current_.launch_command.empty() && current_.version.empty() &&
      current_.model.empty()) {
    return;
  }
  current_.launch_index = static_cast<int>(done_.size());
  current_.decode = decode_.Summary();
  done_.push_back(std::move(current_));
  current_ = RunRecord{};
  last_rank_.clear();
  decode_ = DecodeSummarizer{};
  in_traceback_ = false;
  failure_kind_ = FailureKind::kGeneric;
  failure_rank_.clear();
  failure_raised_ = false;
}

void RunBuilder::StartLaunch() {
  if (HasLaunchContent()) CloseCurrent();
  if (current_.first_line == 0) current_.first_line = line_number_;
}

void RunBuilder::SetEngine(std::string_view engine) {
  if (current_.engine.empty()) current_.engine = engine;
  if (current_.first_line == 0) current_.first_line = line_number_;
  current_.last_line = line_number_;
  if (current_.started_at.empty() && !line_.time.empty()) current_.started_at = line_.time;
}

void RunBuilder::SetEra(std::string_view era) {
  if (current_.era.empty()) current_.era = era;
}

void RunBuilder::AddPoint(std::string_view stage, std::optional<double> avail,
                          std::optional<double> usage) {
  // A rank that loads again after its launch ended (ready or failed) is a new
  // launch. (A draft model loads a second time within the same launch, before
  // it is ready.)
  bool loading = stage == kStageInitDistributed || stage == kStageLoadWeightBegin ||
                 stage == kStageLoadWeightEnd;
  if (loading && current_.outcome != "incomplete") {
    for (const MemoryPoint& p : current_.timeline) {
      if (p.rank == line_.rank && p.stage == stage) {
        CloseCurrent();
        break;
      }
    }
  }
  if ((avail && !Plausible(*avail)) || (usage && !Plausible(*usage))) {
    Note("ignored an implausible memory figure at " + std::string(stage) + " (garbled line?)");
    return;
  }
  if (current_.timeline.size() >= kMaxTimelinePoints) {
    Note(fmt::format("more than {} memory lines in one launch: the rest were ignored",
                     kMaxTimelinePoints));
    return;
  }
  if (current_.first_line == 0) current_.first_line = line_number_;
  current_.last_line = line_number_;
  if (current_.started_at.empty() && !line_.time.empty()) current_.started_at = line_.time;
  current_.timeline.push_back({std::string(line_.rank), std::string(line_.time), std::string(stage),
                               avail, usage, line_number_});
}

void RunBuilder::SetFigure(const std::string& key, double value) {
  if (!Plausible(value)) {
    Note("ignored an implausible figure for " + key + " (garbled line?)");
    return;
  }
  current_.figures.emplace(key, value);
  if (current_.first_line == 0) current_.first_line = line_number_;
  current_.last_line = line_number_;
}

void RunBuilder::Fail(std::string_view message, FailureKind kind, bool raised) {
  std::string text = Kept(message);
  RunRecord& r = current_;
  if (r.outcome == "failed") {
    if (text == r.error) return;  // the same failure from another rank
    bool same_process =
        kind == failure_kind_ && line_.rank == failure_rank_ && kind != FailureKind::kGeneric;
    if (same_process && raised && failure_raised_) {
      // The next exception of one chain: Python prints the cause first, then what was raised
      // from it (vLLM 0.19's torch.OutOfMemoryError, then its "CUDA out of memory occurred
      // when warming up sampler", v1/worker/gpu_model_runner.py _dummy_sampler_run); the last
      // is what ended the launch.
    } else if (same_process) {
      // The same process giving another verdict of its own: it was relaunched.
      CloseCurrent();
    } else if (kind <= failure_kind_) {
      return;
    }
  }
  RunRecord& now = current_;
  if (now.first_line == 0) now.first_line = line_number_;
  now.last_line = line_number_;
  now.outcome = "failed";
  now.error = std::move(text);
  failure_kind_ = kind;
  failure_rank_ = line_.rank;
  failure_raised_ = raised;
}

void RunBuilder::MarkReady() {
  if (current_.outcome != "failed") current_.outcome = "ok";
  current_.last_line = line_number_;
}

void RunBuilder::AddDecodeSample(DecodeSample sample, std::string_view rank) {
  sample.line = line_number_;
  decode_.Add(sample, rank);
  if (current_.first_line == 0) current_.first_line = line_number_;
  if (current_.started_at.empty() && !line_.time.empty()) current_.started_at = line_.time;
  MarkReady();
}

void RunBuilder::AddSpecMetrics(const SpecMetrics& spec) {
  decode_.AddSpec(spec);
  current_.last_line = line_number_;
}

void RunBuilder::Note(std::string note) {
  if (std::find(current_.notes.begin(), current_.notes.end(), note) == current_.notes.end()) {
    current_.notes.push_back(std::move(note));
  }
}

void RunBuilder::AddTracebackLine(std::string_view text) {
  if (collecting_ && current_.traceback.size() < kMaxTracebackLines) {
    current_.traceback.push_back(Kept(text));
  }
}

std::vector<RunRecord> RunBuilder::Finish(bool ended_mid_line, bool saw_cut_line) {
  if (ended_mid_line) Note("the log ends mid-line: it was cut while being written or copied");
  if (saw_cut_line) Note("a line longer than the read buffer was cut; its rest was skipped");
  if (in_traceback_ && current_.outcome == "incomplete") {
    // A traceback raises: the launch failed, and the paste stops before the exception line.
    Fail("Traceback (most recent call last): the log ends before the exception line",
         FailureKind::kGeneric);
    Note("the log ends inside a traceback: the exception that ended the launch was cut");
  }
  CloseCurrent();
  for (RunRecord& r : done_) {
    if (r.outcome == "incomplete") {
      r.notes.push_back("incomplete: the log ends before the engine reported ready or a failure");
    }
  }
  return std::move(done_);
}

}  // namespace kvplan
