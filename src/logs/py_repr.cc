#include "logs/py_repr.h"

#include <charconv>
#include <cmath>

#include <fmt/core.h>

namespace kvplan {
namespace {

struct Fail {
  size_t pos;
  std::string what;
};

bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | ((cp >> 18) & 0x07)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class Parser {
 public:
  Parser(std::string_view text, int max_depth) : s_(text), max_depth_(max_depth) {}

  PyParse Run() {
    PyParse out;
    try {
      out.value = Value(0);
    } catch (const Fail& f) {
      Note(f);
    }
    out.complete = problem_.empty();
    out.problem = problem_;
    return out;
  }

 private:
  void Note(const Fail& f) {
    if (problem_.empty()) problem_ = fmt::format("at byte {}: {}", f.pos, f.what);
  }
  [[noreturn]] void Throw(std::string what) const { throw Fail{pos_, std::move(what)}; }
  bool AtEnd() const { return pos_ >= s_.size(); }
  char Peek() const { return AtEnd() ? '\0' : s_[pos_]; }
  void SkipSpace() {
    while (!AtEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n')) ++pos_;
  }
  void Expect(char c) {
    SkipSpace();
    if (AtEnd()) Throw(fmt::format("the text ends where '{}' was expected", c));
    if (s_[pos_] != c) Throw(fmt::format("expected '{}'", c));
    ++pos_;
  }

  PyValue Value(int depth) {
    if (depth > max_depth_) Throw(fmt::format("nested deeper than {} levels", max_depth_));
    SkipSpace();
    if (AtEnd()) Throw("the text ends where a value was expected");
    size_t start = pos_;
    PyValue v = ValueBody(depth, s_[pos_]);
    v.source.assign(s_.substr(start, pos_ - start));
    return v;
  }

  PyValue ValueBody(int depth, char c) {
    if (c == '\'' || c == '"') return String();
    if ((c == 'b' || c == 'r' || c == 'u' || c == 'f') && pos_ + 1 < s_.size() &&
        (s_[pos_ + 1] == '\'' || s_[pos_ + 1] == '"')) {
      ++pos_;
      return String();
    }
    if (c == '[') return Sequence(depth, ']', PyValue::Kind::kList);
    if (c == '(') return Sequence(depth, ')', PyValue::Kind::kTuple);
    if (c == '{') return Braces(depth);
    if (c == '<') return Opaque();
    if (c == '.' && s_.substr(pos_, 3) == "...") {
      pos_ += 3;
      PyValue v;
      v.kind = PyValue::Kind::kEllipsis;
      return v;
    }
    if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) return Number();
    if (IsIdentStart(c)) return NameOrCall(depth);
    Throw(fmt::format("unexpected character '{}'", c));
  }

  PyValue String() {
    char quote = s_[pos_++];
    PyValue v;
    v.kind = PyValue::Kind::kStr;
    for (;;) {
      if (AtEnd()) Throw("the text ends inside a string");
      char c = s_[pos_++];
      if (c == quote) return v;
      if (c != '\\') {
        v.text.push_back(c);
        continue;
      }
      if (AtEnd()) Throw("the text ends inside a string");
      char e = s_[pos_++];
      switch (e) {
        case 'n':
          v.text.push_back('\n');
          break;
        case 't':
          v.text.push_back('\t');
          break;
        case 'r':
          v.text.push_back('\r');
          break;
        case '0':
          v.text.push_back('\0');
          break;
        case 'x':
          AppendUtf8(Hex(2), &v.text);
          break;
        case 'u':
          AppendUtf8(Hex(4), &v.text);
          break;
        case 'U':
          AppendUtf8(Hex(8), &v.text);
          break;
        default:
          v.text.push_back(e);  // \\ \' \" and anything else taken literally
      }
    }
  }

  uint32_t Hex(int digits) {
    uint32_t cp = 0;
    for (int i = 0; i < digits; ++i) {
      if (AtEnd()) Throw("the text ends inside an escape");
      char c = s_[pos_++];
      int d = (c >= '0' && c <= '9')   ? c - '0'
              : (c >= 'a' && c <= 'f') ? c - 'a' + 10
              : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                       : -1;
      if (d < 0) Throw("bad hex digit in an escape");
      cp = cp * 16 + static_cast<uint32_t>(d);
    }
    return cp > 0x10FFFF ? 0xFFFD : cp;
  }

  PyValue Number() {
    size_t start = pos_;
    if (s_[pos_] == '-' || s_[pos_] == '+') ++pos_;
    if (s_.substr(pos_, 3) == "inf") {
      pos_ += 3;
      PyValue v;
      v.kind = PyValue::Kind::kFloat;
      v.number = s_[start] == '-' ? -INFINITY : INFINITY;
      return v;
    }
    bool is_float = false;
    while (!AtEnd()) {
      char c = s_[pos_];
      if (c >= '0' && c <= '9') {
        ++pos_;
      } else if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
        ++pos_;
        if ((c == 'e' || c == 'E') && (Peek() == '-' || Peek() == '+')) ++pos_;
      } else {
        break;
      }
    }
    std::string_view digits = s_.substr(start, pos_ - start);
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
    PyValue v;
    if (!is_float) {
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v.integer);
      if (ec == std::errc() && p == digits.data() + digits.size()) {
        v.kind = PyValue::Kind::kInt;
        v.number = static_cast<double>(v.integer);
        return v;
      }
    }
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v.number);
    if (ec == std::errc::result_out_of_range) {
      v.number = digits[0] == '-' ? -INFINITY : INFINITY;
    } else if (ec != std::errc() || p != digits.data() + digits.size()) {
      pos_ = start;
      Throw("malformed number");
    }
    v.kind = PyValue::Kind::kFloat;
    return v;
  }

  PyValue NameOrCall(int depth) {
    size_t start = pos_;
    while (!AtEnd() && (IsIdentChar(s_[pos_]) || s_[pos_] == '.')) ++pos_;
    PyValue v;
    v.text.assign(s_.substr(start, pos_ - start));
    if (Peek() == '(') return Call(depth, std::move(v.text));
    if (v.text == "None") {
      v.kind = PyValue::Kind::kNone;
    } else if (v.text == "True" || v.text == "False") {
      v.kind = PyValue::Kind::kBool;
      v.boolean = v.text == "True";
    } else if (v.text == "nan" || v.text == "inf") {
      v.kind = PyValue::Kind::kFloat;
      v.number = v.text == "nan" ? NAN : INFINITY;
    } else if (v.text == "Ellipsis") {
      v.kind = PyValue::Kind::kEllipsis;
    } else {
      v.kind = PyValue::Kind::kName;
    }
    return v;
  }

  PyValue Sequence(int depth, char close, PyValue::Kind kind) {
    ++pos_;
    PyValue v;
    v.kind = kind;
    bool trailing_comma = false;
    for (;;) {
      SkipSpace();
      if (AtEnd()) Throw("the text ends inside a list or tuple");
      if (s_[pos_] == close) {
        ++pos_;
        break;
      }
      v.items.push_back(Value(depth + 1));
      SkipSpace();
      trailing_comma = Peek() == ',';
      if (trailing_comma)
        ++pos_;
      else if (Peek() != close)
        Throw(fmt::format("expected ',' or '{}'", close));
    }
    // "(x)" is a parenthesised value, not a tuple.
    if (kind == PyValue::Kind::kTuple && v.items.size() == 1 && !trailing_comma) {
      PyValue inner = std::move(v.items[0]);
      return inner;
    }
    return v;
  }

  PyValue Braces(int depth) {
    ++pos_;
    PyValue v;
    v.kind = PyValue::Kind::kDict;
    bool first = true;
    for (;;) {
      SkipSpace();
      if (AtEnd()) {  // a cut dict (vLLM's non-default args in an excerpt) keeps what it holds
        Note(Fail{pos_, "the text ends inside a dict or set"});
        return v;
      }
      if (s_[pos_] == '}') {
        ++pos_;
        return v;
      }
      if (!BracesItem(depth, &first, &v)) return v;
      SkipSpace();
      if (Peek() == ',')
        ++pos_;
      else if (AtEnd())
        continue;
      else if (Peek() != '}')
        Throw("expected ',' or '}'");
    }
  }

  // One "key: value" (or set element) into `v`; false when the text ends inside it, which
  // is noted and keeps the items before it.
  bool BracesItem(int depth, bool* first, PyValue* v) {
    try {
      PyValue key = Value(depth + 1);
      SkipSpace();
      if (*first && Peek() != ':') v->kind = PyValue::Kind::kSet;
      *first = false;
      if (v->kind == PyValue::Kind::kDict) {
        Expect(':');
        PyValue item = Value(depth + 1);
        v->keys.push_back(std::move(key));
        v->items.push_back(std::move(item));
      } else {
        v->items.push_back(std::move(key));
      }
      return true;
    } catch (const Fail& f) {
      if (pos_ < s_.size()) throw;  // garbled, not cut: the caller gives up on the value
      Note(f);
      return false;
    }
  }

  PyValue Opaque() {
    size_t start = pos_;
    int nesting = 0;
    while (!AtEnd()) {
      char c = s_[pos_];
      if (c == '\'' || c == '"') {
        String();
        continue;
      }
      ++pos_;
      if (c == '<') ++nesting;
      if (c == '>' && --nesting == 0) {
        PyValue v;
        v.kind = PyValue::Kind::kOpaque;
        v.text.assign(s_.substr(start, pos_ - start));
        return v;
      }
    }
    Throw("the text ends inside <...>");
  }

  // Name(positional..., key=value, ...) with recovery: an argument that does
  // not parse is skipped up to the next top-level ',' or ')'.
  PyValue Call(int depth, std::string name) {
    ++pos_;  // '('
    PyValue v;
    v.kind = PyValue::Kind::kCall;
    v.text = std::move(name);
    for (;;) {
      SkipSpace();
      if (AtEnd()) {
        Note(Fail{pos_, "the text ends inside " + v.text + "(...)"});
        return v;
      }
      if (s_[pos_] == ')') {
        ++pos_;
        return v;
      }
      if (s_[pos_] == ',') {  // a stray comma after a skipped argument
        ++pos_;
        continue;
      }
      size_t arg_start = pos_;
      try {
        Argument(depth, &v);
      } catch (const Fail& f) {
        if (f.what.rfind("nested deeper", 0) == 0 && depth > 0) throw;
        Note(f);
        pos_ = arg_start;
        SkipArgument();
      }
    }
  }

  void Argument(int depth, PyValue* call) {
    size_t name_end = pos_;
    while (name_end < s_.size() && IsIdentChar(s_[name_end])) ++name_end;
    bool keyword = name_end > pos_ && IsIdentStart(s_[pos_]) && name_end < s_.size() &&
                   s_[name_end] == '=' && (name_end + 1 >= s_.size() || s_[name_end + 1] != '=');
    if (keyword) {
      call->kw_names.emplace_back(s_.substr(pos_, name_end - pos_));
      pos_ = name_end + 1;
      try {
        call->kw_values.push_back(Value(depth + 1));
      } catch (...) {
        call->kw_names.pop_back();
        throw;
      }
    } else {
      // Includes "[...]" where a person trimmed the repr: a list holding Ellipsis.
      call->items.push_back(Value(depth + 1));
    }
    SkipSpace();
    if (Peek() == ',') ++pos_;  // a missing comma ("[...] key=v") is tolerated
  }

  // Moves past one argument: to the next ',' or ')' outside brackets and quotes.
  void SkipArgument() {
    int nesting = 0;
    while (!AtEnd()) {
      char c = s_[pos_];
      if (c == '\'' || c == '"') {
        char quote = c;
        ++pos_;
        while (!AtEnd() && s_[pos_] != quote) pos_ += (s_[pos_] == '\\') ? 2 : 1;
        if (!AtEnd()) ++pos_;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++nesting;
      if ((c == ')' || c == ']' || c == '}') && nesting > 0) {
        --nesting;
      } else if (nesting == 0 && (c == ',' || c == ')')) {
        if (c == ',') ++pos_;
        return;
      }
      ++pos_;
    }
    if (pos_ > s_.size()) pos_ = s_.size();
  }

  std::string_view s_;
  int max_depth_;
  size_t pos_ = 0;
  std::string problem_;
};

}  // namespace

std::string PyValue::Display() const { return kind == Kind::kStr ? text : source; }

const PyValue* PyValue::Kwarg(std::string_view name) const {
  for (size_t i = 0; i < kw_names.size(); ++i) {
    if (kw_names[i] == name) return &kw_values[i];
  }
  return nullptr;
}

PyParse ParsePyRepr(std::string_view text, int max_depth) { return Parser(text, max_depth).Run(); }

}  // namespace kvplan
