// Opening the files kvplan reads (config.json, safetensors headers, indexes,
// YAML, logs): only regular files, each kind with a size limit, so that a
// FIFO, /dev/zero or a 200 MB file gives one clear error line instead of a
// hang or memory that grows with the input.
#pragma once

#include <cstdint>
#include <streambuf>
#include <string>
#include <string_view>

namespace kvplan {

// What a file is, for the error messages, and how large one may be.
struct InputKind {
  std::string_view what;      // "config.json", "log", ...
  std::string_view expected;  // "a model's config.json (JSON object)"
  int64_t max_bytes = 0;      // 0: no limit (streamed inputs such as logs)
};

// An open, read-only descriptor of a regular file; closes on destruction.
class InputFile {
 public:
  // InputError (one line naming the path, what it is, the limit and what was
  // expected) when `path` cannot be opened, is not a regular file, or is
  // larger than kind.max_bytes. Never blocks on a FIFO.
  InputFile(const std::string& path, const InputKind& kind);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  int fd() const { return fd_; }
  int64_t size() const { return size_; }  // at open time

  // Up to `n` bytes (fewer only at the end of the file).
  std::string Read(int64_t n);

 private:
  std::string name_;  // the path, escaped for messages
  std::string what_;
  int fd_ = -1;
  int64_t size_ = 0;
};

// The next `n` bytes of an open InputFile as a std::streambuf, read in 64 KiB
// chunks: a streamed (SAX) parser over it holds one chunk, not the whole
// input (a 95 MB safetensors header took 100 MB read whole). Fewer bytes
// only when the file ends first.
class InputFileStreamBuf : public std::streambuf {
 public:
  InputFileStreamBuf(InputFile& file, int64_t n) : file_(file), left_(n) {}

 protected:
  int_type underflow() override;

 private:
  InputFile& file_;
  int64_t left_;
  std::string chunk_;
};

// The whole file, opened as InputFile; at most kind.max_bytes are read even
// when the file grows meanwhile.
std::string ReadInputFile(const std::string& path, const InputKind& kind);

// "12.3 MiB", "512 KiB", "100 bytes": sizes in error messages.
std::string DescribeBytes(int64_t bytes);

}  // namespace kvplan
