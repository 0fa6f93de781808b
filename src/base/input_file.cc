#include "base/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/core.h>

#include "base/untrusted_text.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

const char* FileTypeName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string DescribeBytes(int64_t bytes) {
  if (bytes >= (int64_t{1} << 20)) return fmt::format("{:.1f} MiB", bytes / 1048576.0);
  if (bytes >= (int64_t{1} << 10)) return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{} bytes", bytes);
}

InputFile::InputFile(const std::string& path, const InputKind& kind)
    : name_(EscapeForError(path)), what_(kind.what) {
  const std::string& name = name_;
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) {
    throw InputError(fmt::format("cannot open {} {}: {}; expected {}", kind.what, name,
                                 std::strerror(errno), kind.expected));
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    const char* type = FileTypeName(st.st_mode);
    ::close(fd_);
    fd_ = -1;
    throw InputError(fmt::format("{} {} is {}, not a regular file; expected {}", kind.what, name,
                                 type, kind.expected));
  }
  size_ = static_cast<int64_t>(st.st_size);
  if (kind.max_bytes > 0 && size_ > kind.max_bytes) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(fmt::format("{} {} is {}, over the {} limit for a {}; expected {}", kind.what,
                                 name, DescribeBytes(size_), DescribeBytes(kind.max_bytes),
                                 kind.what, kind.expected));
  }
  // Regular files never block; reads are plain blocking reads from here on.
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string InputFile::Read(int64_t n) {
  std::string out(static_cast<size_t>(n), '\0');
  size_t got = 0;
  while (got < out.size()) {
    ssize_t r = ::read(fd_, out.data() + got, out.size() - got);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      throw InputError(fmt::format("cannot read {} {}: {}", what_, name_, std::strerror(errno)));
    }
    got += static_cast<size_t>(r);
  }
  out.resize(got);
  return out;
}

InputFileStreamBuf::int_type InputFileStreamBuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (left_ <= 0) return traits_type::eof();
  chunk_ = file_.Read(std::min<int64_t>(left_, int64_t{64} << 10));
  if (chunk_.empty()) return traits_type::eof();
  left_ -= static_cast<int64_t>(chunk_.size());
  setg(chunk_.data(), chunk_.data(), chunk_.data() + chunk_.size());
  return traits_type::to_int_type(*gptr());
}

std::string ReadInputFile(const std::string& path, const InputKind& kind) {
  InputFile f(path, kind);
  // The size at open time, capped: a file that grows meanwhile is cut there.
  int64_t want = kind.max_bytes > 0 ? kind.max_bytes : f.size();
  if (f.size() < want) want = f.size();
  std::string text = f.Read(want);
  return text;
}

}  // namespace kvplan
