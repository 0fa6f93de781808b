#include "catalog/config_json_text.h"

#include <cmath>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "kvplan/error.h"

namespace kvplan {
namespace {

// JSON has no spelling for these numbers (and nlohmann refuses out-of-range
// literals), so each travels through nlohmann as a string no real config holds
// (it starts with an escaped NUL) and is turned back into its number after
// parsing.
struct Token {
  std::string_view python;  // as written in the config
  std::string_view json;    // what nlohmann is given instead
  double value;
};
const Token kTokens[] = {
    {"-Infinity", "\"\\u0000kvplan:-Infinity\"", -std::numeric_limits<double>::infinity()},
    {"Infinity", "\"\\u0000kvplan:Infinity\"", std::numeric_limits<double>::infinity()},
    {"NaN", "\"\\u0000kvplan:NaN\"", std::numeric_limits<double>::quiet_NaN()},
};

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// One replacement, to map nlohmann's error offsets back to the original text.
struct Edit {
  size_t at = 0;        // offset in the rewritten text where the replacement starts
  ptrdiff_t delta = 0;  // rewritten length minus original length
};

// Rewrites the Python tokens found outside strings; `edits` records where.
std::string RewritePythonTokens(std::string_view text, std::vector<Edit>& edits) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    if (i == 0 || !IsWordChar(text[i - 1])) {
      for (const Token& t : kTokens) {
        size_t end = i + t.python.size();
        if (text.substr(i, t.python.size()) == t.python &&
            (end >= text.size() || !IsWordChar(text[end]))) {
          edits.push_back({out.size(), static_cast<ptrdiff_t>(t.json.size()) -
                                           static_cast<ptrdiff_t>(t.python.size())});
          out += t.json;
          i = end - 1;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

void RestoreTokens(nlohmann::json& j) {
  if (j.is_string()) {
    const std::string& text = j.get_ref<const std::string&>();
    if (text.empty() || text[0] != '\0') return;
    for (const Token& t : kTokens) {
      if (nlohmann::json::parse(t.json).get_ref<const std::string&>() == text) {
        j = t.value;
        return;
      }
    }
  } else if (j.is_structured()) {
    for (nlohmann::json& child : j) RestoreTokens(child);
  }
}

// The offset in the original text of `pos` in the rewritten one.
size_t OriginalOffset(size_t pos, const std::vector<Edit>& edits) {
  ptrdiff_t shift = 0;
  for (const Edit& e : edits) {
    if (e.at >= pos) break;
    shift += e.delta;
  }
  return static_cast<size_t>(std::max<ptrdiff_t>(0, static_cast<ptrdiff_t>(pos) - shift));
}

// nlohmann's message without its "[json.exception...] parse error at line L,
// column C: " prefix (kvplan gives the position in the original text).
std::string Reason(const std::string& what) {
  size_t col = what.find("column ");
  size_t colon = col == std::string::npos ? std::string::npos : what.find(": ", col);
  std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
  // nlohmann quotes the bytes it read; binary garbage must not break the line.
  for (char& ch : reason) {
    if (static_cast<unsigned char>(ch) < 0x20) ch = ' ';
  }
  return reason;
}

[[noreturn]] void ThrowParseError(std::string_view text, const nlohmann::json::parse_error& e,
                                  const std::vector<Edit>& edits, const std::string& origin) {
  // e.byte is 1-based: the character at which the parser gave up.
  size_t pos = OriginalOffset(e.byte == 0 ? 0 : e.byte - 1, edits);
  pos = std::min(pos, text.size());
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < pos; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  throw InputError(origin + ": not valid JSON at line " + std::to_string(line) + ", column " +
                   std::to_string(pos - line_start + 1) + ": " + Reason(e.what()) +
                   " (expected a Hugging Face config.json object)");
}

}  // namespace

nlohmann::json ParseConfigJsonText(std::string_view text, const std::string& origin) {
  std::vector<Edit> edits;
  std::string json = RewritePythonTokens(text, edits);
  try {
    nlohmann::json j = nlohmann::json::parse(json);
    if (!edits.empty()) RestoreTokens(j);
    return j;
  } catch (const nlohmann::json::parse_error& e) {
    ThrowParseError(text, e, edits, origin);
  } catch (const nlohmann::json::exception& e) {
    // Not a syntax error but a value the parser cannot hold (out_of_range 406:
    // a number such as 1e999 that overflows a double); found by the fuzzer.
    throw InputError(origin + ": not valid JSON: " + Reason(e.what()) +
                     " (expected a Hugging Face config.json object)");
  }
}

}  // namespace kvplan
