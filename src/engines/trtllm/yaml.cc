#include "engines/trtllm/yaml.h"

#include <fmt/core.h>

#include "base/untrusted_text.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

// Drops a comment: '#' at the start or after whitespace, outside quotes.
std::string_view StripComment(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
      return line.substr(0, i);
    }
  }
  return line;
}

std::string Unquote(const std::string& v) {
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    return v.substr(1, v.size() - 2);
  }
  return v;
}

}  // namespace

std::map<std::string, std::string> ParseSimpleYaml(std::string_view text,
                                                   const std::string& origin) {
  std::map<std::string, std::string> out;
  std::string parent;     // the open mapping key, "" at top level
  int child_indent = -1;  // indentation of the open mapping's children
  int line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view raw = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    std::string_view line = StripComment(raw);
    std::string body = Trim(line);
    if (body.empty() || body == "---") continue;
    auto fail = [&](const char* what) {
      return InputError(
          fmt::format("{} line {}: {} (kvplan reads only `key: value` and one level "
                      "of nested mappings), got '{}'",
                      EscapeForError(origin), line_no, what, EscapeForError(body)));
    };
    if (line.find('\t') != std::string_view::npos && line.find_first_not_of('\t') > 0) {
      throw fail("tab indentation");
    }
    int indent = static_cast<int>(line.find_first_not_of(' '));
    if (body[0] == '-') throw fail("a list");
    if (body[0] == '{' || body[0] == '[' || body[0] == '&' || body[0] == '*') {
      throw fail("a flow collection or anchor");
    }
    size_t colon = body.find(": ");
    bool opens = body.back() == ':' && (colon == std::string::npos || colon == body.size() - 1);
    if (opens) colon = body.size() - 1;
    if (colon == std::string::npos || colon == 0) throw fail("not a `key: value` line");
    std::string key = Trim(body.substr(0, colon));
    std::string value = opens ? "" : Trim(body.substr(colon + 2));
    if (!value.empty() && (value[0] == '{' || value[0] == '[' || value[0] == '|' ||
                           value[0] == '>' || value[0] == '&' || value[0] == '*')) {
      throw fail("a flow collection, block scalar or anchor as a value");
    }
    if (indent == 0) {
      parent.clear();
      child_indent = -1;
      if (out.count(key)) throw fail("a key given twice");
      if (opens) {
        parent = key;
      } else {
        out[key] = Unquote(value);
      }
      continue;
    }
    if (parent.empty()) throw fail("indentation without a parent mapping");
    if (child_indent < 0) child_indent = indent;
    if (indent != child_indent) throw fail("nesting deeper than one level");
    if (opens) throw fail("nesting deeper than one level");
    std::string full = parent + "." + key;
    if (out.count(full)) throw fail("a key given twice");
    out[full] = Unquote(value);
  }
  return out;
}

}  // namespace kvplan
