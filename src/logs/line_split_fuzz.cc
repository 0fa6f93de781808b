// libFuzzer target: the line reader and the prefix splitter. The lines it
// returns, joined back with their separators, must account for every byte
// except those of cut lines; prefixes must be views into the line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "logs/line_reader.h"
#include "logs/log_line.h"

namespace {

bool Inside(std::string_view part, std::string_view whole) {
  return part.empty() ||
         (part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t buffer = 64 + data[0] % 64;
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  kvplan::LineReader reader = kvplan::LineReader::FromText(text, buffer);
  std::string_view line;
  size_t content = 0;
  std::string scratch;
  while (reader.Next(&line)) {
    if (line.size() > buffer) std::abort();
    content += line.size();
    std::string_view clean = kvplan::StripAnsi(line, &scratch);
    kvplan::LogLine l = kvplan::SplitLogLine(clean);
    if (!Inside(l.message, clean) || !Inside(l.rank, clean) || !Inside(l.time, clean)) {
      std::abort();
    }
  }
  if (content > text.size()) std::abort();
  if (reader.bytes_read() != static_cast<int64_t>(text.size())) std::abort();
  return 0;
}
