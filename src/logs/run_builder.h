// Assembles run records while a log streams by: the line handlers of each
// engine report what they read, and the builder decides where one launch ends
// and the next begins (a new server_args / non-default args line, a rank that
// loads weights a second time, a process that fails a second time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logs/decode_summary.h"
#include "logs/log_line.h"
#include "logs/run_record.h"

namespace kvplan {

// How much a failure message says about the cause; the most telling one wins.
enum class FailureKind {
  kGeneric = 1,    // "EngineCore failed to start.", "Received sigquit ..."
  kException = 2,  // "RuntimeError: ..." after a traceback
  kMemory = 3,     // the engine's own memory verdict ("Not enough memory ...")
};

class RunBuilder {
 public:
  RunRecord& run() { return current_; }
  const LogLine& line() const { return line_; }
  int64_t line_number() const { return line_number_; }

  // Called for every line before the handlers.
  void BeginLine(const LogLine& line, int64_t line_number);

  // A launch marker (server_args, a command line, an nvidia-smi header): a
  // new run starts when the current one already holds a launch.
  void StartLaunch();
  void SetEngine(std::string_view engine);
  void SetEra(std::string_view era);  // first evidence wins
  void AddPoint(std::string_view stage, std::optional<double> avail, std::optional<double> usage);
  void SetFigure(const std::string& key, double value);  // first value wins
  // A figure a line may not have held (a failed number parse): nothing when unset.
  void SetFigureIfRead(const std::string& key, std::optional<double> value) {
    if (value) SetFigure(key, *value);
  }
  // `raised`: the exception line of a traceback, which may follow another one of the same
  // chain; an engine's own verdict line (its sizing error) is not.
  void Fail(std::string_view message, FailureKind kind, bool raised = false);
  void MarkReady();
  // A decode report (`rank` says whose) and vLLM's speculative report after it.
  // A run that decodes has started, whether or not its ready line is in the log.
  void AddDecodeSample(DecodeSample sample, std::string_view rank);
  void AddSpecMetrics(const SpecMetrics& spec);
  void Note(std::string note);  // deduplicated

  // Tracebacks: lines after "Traceback (most recent call last):" up to the exception.
  void StartTraceback() {
    in_traceback_ = true;
    collecting_ = current_.traceback.empty();  // keep the first rank's traceback only
  }
  bool in_traceback() const { return in_traceback_; }
  void AddTracebackLine(std::string_view text);
  void EndTraceback() { in_traceback_ = false; }

  std::vector<RunRecord> Finish(bool ended_mid_line, bool saw_cut_line);
  size_t closed_runs() const { return done_.size(); }  // launches ended so far
  // Nothing of a launch read yet: no engine line, launch command, GPU table or traceback.
  bool NothingRead() const;

 private:
  bool HasLaunchContent() const;
  void CloseCurrent();

  void NoteRankTags(std::string_view rank);

  RunRecord current_;
  std::string last_rank_;    // the rank tag NoteRankTags read last
  DecodeSummarizer decode_;  // the current run's decode reports
  std::vector<RunRecord> done_;
  LogLine line_;
  int64_t line_number_ = 0;
  bool in_traceback_ = false;
  bool collecting_ = false;
  FailureKind failure_kind_ = FailureKind::kGeneric;
  std::string failure_rank_;
  bool failure_raised_ = false;
};

}  // namespace kvplan
