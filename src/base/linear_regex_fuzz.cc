// libFuzzer target: the first line is a pattern, the rest the text. Compile
// refuses or succeeds, Search answers in linear time; nothing may throw.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/linear_regex.h"
#include "base/untrusted_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const size_t nl = in.find('\n');
  const std::string_view pattern = in.substr(0, nl);
  const std::string_view text = nl == std::string_view::npos ? "" : in.substr(nl + 1);
  std::string why;
  if (std::optional<kvplan::LinearRegex> re = kvplan::LinearRegex::Compile(pattern, &why)) {
    re->Search(text);
  }
  kvplan::QuoteForError(in);
  kvplan::EscapeControlBytes(in, 200);
  return 0;
}
