#include "logs/common_lines.h"

#include <algorithm>
#include <string>

#include "logs/text_scan.h"

namespace kvplan {
namespace {

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.';
}

// A shell prompt pasted before the command: "user@host:~/x$ python ..." or
// "root@box:/# vllm serve ...". Returns the command after it, or `msg`.
std::string_view AfterPrompt(std::string_view msg) {
  std::string_view head = msg.substr(0, 160);
  for (std::string_view mark : {"$ ", "# "}) {
    size_t at = head.find(mark);
    if (at != std::string_view::npos && at > 0 && head[at - 1] != ' ') return msg.substr(at + 2);
  }
  return msg;
}

// "$ python -m sglang.launch_server --model-path ... --tp 8" and the like.
bool LaunchCommand(std::string_view msg, RunBuilder& b) {
  char c = msg[0];
  if (c != '$' && c != 'p' && c != 'v' && c != 's' && c != 'C' && c != 'N' && c != '+') {
    std::string_view cmd = AfterPrompt(msg);
    if (cmd.size() == msg.size() || cmd.empty()) return false;
    msg = cmd;
  }
  if (!Contains(msg, "sglang.launch_server") && !Contains(msg, "sglang serve") &&
      !Contains(msg, "vllm serve ") && !Contains(msg, "vllm.entrypoints.openai.api_server")) {
    return false;
  }
  b.StartLaunch();
  std::string_view cmd = msg;
  if (StartsWith(cmd, "$ ") || StartsWith(cmd, "+ ")) cmd.remove_prefix(2);
  RunRecord& r = b.run();
  if (r.launch_command.empty()) r.launch_command = std::string(cmd.substr(0, 8192));
  if (r.first_line == 0) r.first_line = b.line_number();
  return true;
}

// "|   0  NVIDIA L40S                    On  |   00000000:83:00.0 Off |   0 |" and the
// memory row below it "| N/A 25C P8 33W / 350W |  1MiB /  46068MiB | ...".
bool NvidiaSmi(std::string_view raw, RunBuilder& b) {
  if (Contains(raw, "NVIDIA-SMI ")) {
    b.StartLaunch();
    return true;
  }
  std::string_view s = raw.substr(1);
  while (!s.empty() && s[0] == ' ') s.remove_prefix(1);
  RunRecord& r = b.run();
  if (!s.empty() && s[0] >= '0' && s[0] <= '9') {
    size_t name_at = s.find("  ");
    if (name_at == std::string_view::npos) return false;
    std::string_view name = s.substr(name_at);
    while (!name.empty() && name[0] == ' ') name.remove_prefix(1);
    name = name.substr(0, name.find("  "));
    if (!StartsWith(name, "NVIDIA") && !StartsWith(name, "Tesla") && !StartsWith(name, "AMD")) {
      return false;
    }
    if (r.gpu_name.empty()) r.gpu_name = std::string(name);
    ++r.gpu_count;
    return true;
  }
  size_t slash = s.find("MiB /");
  if (slash == std::string_view::npos) return false;
  std::optional<double> mib = NumberAfter(s.substr(slash), "MiB /");
  if (mib && (r.gpu_capacity_mib == 0 || *mib < static_cast<double>(r.gpu_capacity_mib))) {
    r.gpu_capacity_mib = static_cast<int64_t>(*mib);  // SGLang reads the min over GPUs
  }
  return true;
}

// NCCL's own lines: "host:106022:106733 [1] NCCL INFO ncclCommInitRank comm 0x26a187b0 rank 1
// nranks 2 cudaDev 1 ..." and "... NCCL INFO comm 0x26a187b0 rank 1 nRanks 2 nNodes 1 localRanks
// 2 ..." (NCCL init.cc). O(1) unless the first word is followed by "[": most lines are not.
bool NcclInit(std::string_view msg, RunBuilder& b) {
  size_t space = msg.find(' ');
  if (space == std::string_view::npos || space > 96 || space + 1 >= msg.size() ||
      msg[space + 1] != '[') {
    return false;
  }
  size_t close = msg.find("] NCCL INFO ", space);
  if (close == std::string_view::npos || close > space + 8) return false;
  std::string_view info = msg.substr(close + 12);
  std::optional<double> ranks = NumberAfter(info, " nranks ");
  if (!ranks) ranks = NumberAfter(info, " nRanks ");
  RunRecord& r = b.run();
  if (ranks && *ranks >= 1 && *ranks < 1e6)
    r.nccl_ranks = std::max(r.nccl_ranks, static_cast<int>(*ranks));
  std::optional<double> nodes = NumberAfter(info, " nNodes ");
  if (nodes && *nodes >= 1 && *nodes < 1e6)
    r.nccl_nodes = std::max(r.nccl_nodes, static_cast<int>(*nodes));
  return true;
}

void Exception(std::string_view msg, RunBuilder& b) {
  b.EndTraceback();
  // An exception logged at DEBUG was caught and the launch went on: vLLM 0.19's
  // renderers/hf.py logs the chat-template probe's ValueError with logger.debug(exc_info).
  if (b.line().level == "DEBUG") return;
  bool memory = Contains(msg, "Not enough memory") || Contains(msg, "out of memory") ||
                Contains(msg, "OutOfMemoryError") || Contains(msg, "leave no GPU memory") ||
                Contains(msg, "KV cache is needed") || Contains(msg, "stored in KV cache") ||
                Contains(msg, "No available memory for the cache blocks") ||
                Contains(msg, "memory capacity is unbalanced");
  b.Fail(msg, memory ? FailureKind::kMemory : FailureKind::kException, /*raised=*/true);
}

}  // namespace

bool IsExceptionLine(std::string_view msg) {
  size_t i = 0;
  while (i < msg.size() && i < 96 && IsWordChar(msg[i])) ++i;
  if (i == 0 || i >= msg.size() || msg[i] != ':') return false;
  std::string_view name = msg.substr(0, i);
  return name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Exit") ||
         name.ends_with("Interrupt");
}

bool HandleCommonLine(std::string_view msg, std::string_view raw, RunBuilder& b) {
  if (msg.empty()) return false;
  std::string& command = b.run().launch_command;
  if (!command.empty() && command.back() == '\\') {  // a command continued on the next line
    command.pop_back();
    std::string_view more = raw;
    while (!more.empty() && more[0] == ' ') more.remove_prefix(1);
    command.append(more.substr(0, 8192));
    return true;
  }
  if (b.in_traceback()) {
    if (IsExceptionLine(msg)) {
      Exception(msg, b);
    } else {
      b.AddTracebackLine(raw);
    }
    return true;
  }
  if (StartsWith(msg, "Traceback (most recent call last)")) {
    b.StartTraceback();
    return true;
  }
  if (StartsWith(msg, "Scheduler hit an exception") ||
      StartsWith(msg, "Received sigquit from a child process")) {
    b.Fail(msg.substr(0, msg.find(": Traceback")), FailureKind::kGeneric);
    b.SetEngine("sglang");  // both are SGLang's scheduler and launcher lines
    if (Contains(msg, "Traceback (most recent call last)")) b.StartTraceback();
    return true;
  }
  if (IsExceptionLine(msg)) {
    Exception(msg, b);
    return true;
  }
  if (raw[0] == '|' || raw[0] == '+') {
    if (NvidiaSmi(raw, b)) return true;
  }
  if (NcclInit(msg, b)) return true;
  return LaunchCommand(msg, b);
}

}  // namespace kvplan
