// A test's LD_PRELOAD shim (src/cli/cmd_ingest_faults_test.cc): read(2) of the
// file named by KVPLAN_READ_FAULT_PATH fails with EIO once its file position
// reaches KVPLAN_READ_FAULT_AFTER bytes, as a failing disk or a network
// filesystem fails in the middle of a file. Every other read is passed on.
// Not part of kvplan: it is loaded into the child process of a test only, so
// the store and the log reader carry no hook that only tests use.
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace {

struct Target {
  bool on = false;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t after = 0;
};

Target LoadTarget() {
  Target t;
  const char* path = std::getenv("KVPLAN_READ_FAULT_PATH");
  const char* after = std::getenv("KVPLAN_READ_FAULT_AFTER");
  struct stat st {};
  if (path == nullptr || after == nullptr || ::stat(path, &st) != 0) return t;
  t.on = true;
  t.dev = st.st_dev;
  t.ino = st.st_ino;
  t.after = static_cast<off_t>(std::atoll(after));
  return t;
}

}  // namespace

extern "C" ssize_t read(int fd, void* buf, size_t n) {
  using ReadFn = ssize_t (*)(int, void*, size_t);
  static const ReadFn real = reinterpret_cast<ReadFn>(::dlsym(RTLD_NEXT, "read"));
  static const Target target = LoadTarget();
  struct stat st {};
  if (target.on && ::fstat(fd, &st) == 0 && st.st_dev == target.dev && st.st_ino == target.ino) {
    const off_t pos = ::lseek(fd, 0, SEEK_CUR);
    if (pos >= target.after) {
      errno = EIO;
      return -1;
    }
    // Up to the fault exactly, so the reader's byte count can be checked.
    if (pos + static_cast<off_t>(n) > target.after) n = static_cast<size_t>(target.after - pos);
  }
  return real(fd, buf, n);
}
