#include "base/untrusted_text.h"

#include <fmt/core.h>

namespace kvplan {
namespace {

// Length of the valid UTF-8 sequence starting at s[i] (1 to 4), or 0 when the
// bytes there are not one (overlong forms, surrogates and > U+10FFFF included).
size_t Utf8Length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (c > 0xF4 || n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
  }
  if (c == 0xE0 && b(1) < 0xA0) return 0;  // overlong
  if (c == 0xED && b(1) > 0x9F) return 0;  // surrogate
  if (c == 0xF0 && b(1) < 0x90) return 0;  // overlong
  if (c == 0xF4 && b(1) > 0x8F) return 0;  // > U+10FFFF
  return n;
}

enum class Quote { kNone, kDouble, kMessage };

std::string Escape(std::string_view text, size_t max_chars, Quote mode) {
  std::string out;
  size_t chars = 0, i = 0;
  while (i < text.size() && chars < max_chars) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    ++chars;
    if (c >= 0x80) {
      size_t n = Utf8Length(text, i);
      if (n == 0) {
        out += fmt::format("\\x{:02x}", c);
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    ++i;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      out += fmt::format("\\x{:02x}", c);
    } else if ((c == '\\' && mode != Quote::kMessage) || (mode == Quote::kDouble && c == '"')) {
      out += '\\';
      out += static_cast<char>(c);
    } else {
      out += static_cast<char>(c);
    }
  }
  if (i < text.size()) out += "...";
  return out;
}

}  // namespace

std::string EscapeForError(std::string_view text, size_t max_chars) {
  return Escape(text, max_chars, Quote::kNone);
}

std::string QuoteForError(std::string_view text, size_t max_chars) {
  std::string out(1, '"');
  out += Escape(text, max_chars, Quote::kDouble);
  out += '"';
  return out;
}

std::string EscapeControlBytes(std::string_view text, size_t max_chars) {
  return Escape(text, max_chars, Quote::kMessage);
}

}  // namespace kvplan
