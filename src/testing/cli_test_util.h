// For tests: runs the kvplan binary as a user would and captures what it
// prints and its exit status.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

extern char** environ;

namespace kvplan::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

inline std::string ReadAll(int fd) {
  std::string s;
  char buf[8192];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
  return s;
}

// The kvplan binary under test: $KVPLAN_BINARY (ctest sets it) or the one
// this test binary was built with.
inline std::string KvplanBinary() {
  const char* env = std::getenv("KVPLAN_BINARY");
  return env != nullptr && *env != '\0' ? env : KVPLAN_BINARY;
}

// Runs `argv` (argv[0] looked up in PATH unless it is a path) without a shell, so
// arguments need no quoting; stdin is /dev/null when `stdin_from_null`.
inline CliResult RunProgram(std::vector<std::string> argv_s, bool stdin_from_null = false) {
  CliResult r;
  std::vector<char*> argv;
  for (std::string& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  // stdout and stderr go to temporary files: two pipes read one after the
  // other could deadlock on large outputs.
  char out_path[] = "/tmp/kvplan_test_outXXXXXX";
  char err_path[] = "/tmp/kvplan_test_errXXXXXX";
  const int out_fd = mkstemp(out_path);
  const int err_fd = mkstemp(err_path);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (stdin_from_null) posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  pid_t pid = 0;
  if (posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  lseek(out_fd, 0, SEEK_SET);
  lseek(err_fd, 0, SEEK_SET);
  r.out = ReadAll(out_fd);
  r.err = ReadAll(err_fd);
  close(out_fd);
  close(err_fd);
  unlink(out_path);
  unlink(err_path);
  return r;
}

// Runs `kvplan args...` without a shell, so arguments need no quoting.
inline CliResult RunKvplan(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {KvplanBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProgram(std::move(argv));
}

struct ShellRun {
  int status = -1;  // exit status
  std::string out;  // stdout, with stderr joined unless it was discarded
};

// Runs "kvplan ARGS" through /bin/sh, for tests that use shell quoting or
// redirections. stderr joins stdout, or is discarded when merge_stderr is false;
// with `timeout_s`, timeout(1) bounds the run, so a hang ends as status 124.
inline ShellRun RunKvplanShell(const std::string& args, bool merge_stderr = true,
                               int timeout_s = 0) {
  ShellRun r;
  const std::string bounded =
      timeout_s > 0 ? "timeout " + std::to_string(timeout_s) + " " : std::string();
  const std::string cmd =
      bounded + KvplanBinary() + " " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int st = pclose(pipe);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

}  // namespace kvplan::testing
