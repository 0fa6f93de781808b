// Untrusted text (file contents, pasted words, paths) quoted for an error
// message: never longer than a line on a terminal, never a control byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kvplan {

// The longest piece of untrusted text an error message repeats.
inline constexpr size_t kQuotedTextMax = 200;

// `text` with control bytes, DEL, backslashes and bytes that are not valid
// UTF-8 written as escapes (\n, \t, \xNN), cut after `max_chars` input
// characters with "..." appended. No quote marks added.
std::string EscapeForError(std::string_view text, size_t max_chars = kQuotedTextMax);

// EscapeForError in double quotes, with '"' escaped too.
std::string QuoteForError(std::string_view text, size_t max_chars = kQuotedTextMax);

// A whole message made safe for a terminal line: control bytes and invalid
// UTF-8 escaped as in EscapeForError (backslashes kept as they are), cut after
// `max_chars` characters. The CLI's last defence for any error text.
std::string EscapeControlBytes(std::string_view text, size_t max_chars);

}  // namespace kvplan
