#include "base/linear_regex.h"

#include <stdexcept>

#include <fmt/core.h>

namespace kvplan {
// Named, not anonymous: RegexCompiler (a friend of LinearRegex, so in kvplan) holds
// these types, and a class with a member of an anonymous-namespace type must itself
// have internal linkage (GCC -Wsubobject-linkage once files are compiled together).
namespace regex_syntax {

using ByteSet = std::bitset<256>;

enum class Kind : uint8_t { kEmpty, kSet, kBol, kEol, kCat, kAlt, kStar, kPlus, kQuest };

struct Node {
  Kind kind;
  int set = -1;
  std::vector<int> kids;
};

// Groups nested deeper than this are refused: parsing recurses per group.
constexpr int kMaxGroupDepth = 64;

ByteSet Range(int lo, int hi) {
  ByteSet s;
  for (int c = lo; c <= hi; ++c) s.set(static_cast<size_t>(c));
  return s;
}

ByteSet Digits() { return Range('0', '9'); }
ByteSet Word() { return Range('a', 'z') | Range('A', 'Z') | Digits() | Range('_', '_'); }
ByteSet Space() { return Range('\t', '\r') | Range(' ', ' '); }

}  // namespace regex_syntax

using namespace regex_syntax;

// Recursive-descent parser to a syntax tree, then code generation.
class RegexCompiler {
 public:
  explicit RegexCompiler(std::string_view p) : p_(p) {}

  bool Run(LinearRegex* out, std::string* error) {
    if (p_.size() > LinearRegex::kMaxPatternBytes) {
      *error = fmt::format("{} bytes long, over the {}-byte limit", p_.size(),
                           LinearRegex::kMaxPatternBytes);
      return false;
    }
    int root = Alternation(0);
    if (error_.empty() && pos_ < p_.size()) Fail(fmt::format("unbalanced ')' at offset {}", pos_));
    if (!error_.empty()) {
      *error = error_;
      return false;
    }
    out_ = out;
    out->sets_ = std::move(sets_);
    Emit(root);
    out->prog_.push_back({LinearRegex::Op::kMatch});
    return true;
  }

 private:
  bool Fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    return false;
  }
  bool AtEnd() const { return pos_ >= p_.size(); }
  char Peek() const { return p_[pos_]; }

  int Add(Node n) {
    nodes_.push_back(std::move(n));
    return static_cast<int>(nodes_.size()) - 1;
  }
  int AddSet(const ByteSet& s) {
    sets_.push_back(s);
    return Add({Kind::kSet, static_cast<int>(sets_.size()) - 1, {}});
  }

  int Alternation(int depth) {
    Node alt{Kind::kAlt, -1, {Concatenation(depth)}};
    while (error_.empty() && !AtEnd() && Peek() == '|') {
      ++pos_;
      alt.kids.push_back(Concatenation(depth));
    }
    return alt.kids.size() == 1 ? alt.kids[0] : Add(std::move(alt));
  }

  int Concatenation(int depth) {
    Node cat{Kind::kCat, -1, {}};
    while (error_.empty() && !AtEnd() && Peek() != '|' && Peek() != ')') {
      cat.kids.push_back(Repetition(depth));
    }
    return Add(std::move(cat));
  }

  int Repetition(int depth) {
    int atom = Atom(depth);
    if (AtEnd() || !error_.empty()) return atom;
    const char c = Peek();
    Kind k = c == '*'   ? Kind::kStar
             : c == '+' ? Kind::kPlus
             : c == '?' ? Kind::kQuest
                        : Kind::kEmpty;
    if (c == '{') Fail(fmt::format("counted repetition {{m,n}} at offset {}", pos_));
    if (k == Kind::kEmpty) return atom;
    ++pos_;
    if (!AtEnd() && Peek() == '?') ++pos_;  // lazy: the same yes/no answer
    if (!AtEnd() && (Peek() == '*' || Peek() == '+' || Peek() == '?' || Peek() == '{')) {
      Fail(fmt::format("a repeated repetition at offset {}", pos_));
    }
    return Add({k, -1, std::vector<int>{atom}});
  }

  int Group(int depth) {
    if (depth >= kMaxGroupDepth) {
      Fail(fmt::format("groups nested more than {} deep", kMaxGroupDepth));
      return Add({Kind::kEmpty, -1, {}});
    }
    if (!AtEnd() && Peek() == '?') {
      if (pos_ + 1 < p_.size() && p_[pos_ + 1] == ':') {
        pos_ += 2;
      } else {
        Fail(fmt::format("the group extension (?... at offset {}", pos_ - 1));
        return Add({Kind::kEmpty, -1, {}});
      }
    }
    int inner = Alternation(depth + 1);
    if (AtEnd() || Peek() != ')') {
      Fail("an unterminated group '('");
    } else {
      ++pos_;
    }
    return inner;
  }

  int Atom(int depth) {
    const char c = p_[pos_++];
    switch (c) {
      case '(':
        return Group(depth);
      case '[':
        return AddSet(Class());
      case '.':
        return AddSet(~Range('\n', '\n'));
      case '^':
        return Add({Kind::kBol, -1, {}});
      case '$':
        return Add({Kind::kEol, -1, {}});
      case '\\':
        return AddSet(Escape(false));
      case '*':
      case '+':
      case '?':
      case '{':
        Fail(fmt::format("nothing to repeat at offset {}", pos_ - 1));
        return Add({Kind::kEmpty, -1, {}});
      default:
        return AddSet(Range(static_cast<unsigned char>(c), static_cast<unsigned char>(c)));
    }
  }

  // After a backslash: a class escape or an escaped literal.
  ByteSet Escape(bool in_class) {
    if (AtEnd()) {
      Fail("a trailing backslash");
      return {};
    }
    const char c = p_[pos_++];
    switch (c) {
      case 'd':
        return Digits();
      case 'D':
        return ~Digits();
      case 'w':
        return Word();
      case 'W':
        return ~Word();
      case 's':
        return Space();
      case 'S':
        return ~Space();
      case 'n':
        return Range('\n', '\n');
      case 't':
        return Range('\t', '\t');
      default:
        break;
    }
    const auto u = static_cast<unsigned char>(c);
    // Letters and digits after a backslash are Python escapes kvplan does not
    // implement (\b, \A, \1, \x41, ...): refused rather than read as literals.
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || u >= 0x80) {
      Fail(fmt::format("the escape \\{} at offset {}{}", c, pos_ - 2,
                       in_class ? " in a class" : ""));
      return {};
    }
    return Range(u, u);
  }

  // After '[': the members up to the closing ']'.
  ByteSet Class() {
    ByteSet s;
    const bool negate = !AtEnd() && Peek() == '^';
    if (negate) ++pos_;
    bool first = true;
    while (error_.empty()) {
      if (AtEnd()) {
        Fail("an unterminated character class '['");
        break;
      }
      char c = p_[pos_++];
      if (c == ']' && !first) break;
      first = false;
      if (c == '\\') {
        ByteSet e = Escape(true);
        if (e.count() != 1 || AtEnd() || Peek() != '-') {
          s |= e;
          continue;
        }
        c = static_cast<char>(e._Find_first());
      }
      int lo = static_cast<unsigned char>(c), hi = lo;
      if (pos_ + 1 < p_.size() && Peek() == '-' && p_[pos_ + 1] != ']') {
        ++pos_;
        char h = p_[pos_++];
        if (h == '\\') {
          ByteSet e = Escape(true);
          if (e.count() != 1) Fail("a class escape as a range end");
          h = static_cast<char>(e.count() == 1 ? e._Find_first() : 0);
        }
        hi = static_cast<unsigned char>(h);
        if (hi < lo) Fail(fmt::format("a bad character range at offset {}", pos_ - 3));
      }
      if (lo <= hi) s |= Range(lo, hi);
    }
    return negate ? ~s : s;
  }

  // Code generation (Thompson's construction).
  int Pc() const { return static_cast<int>(out_->prog_.size()); }
  int Push(LinearRegex::Op op, int x = 0, int y = 0) {
    out_->prog_.push_back({op, x, y});
    return Pc() - 1;
  }

  void Emit(int id) {
    using Op = LinearRegex::Op;
    const Node& n = nodes_[static_cast<size_t>(id)];
    switch (n.kind) {
      case Kind::kEmpty:
        break;
      case Kind::kSet:
        Push(Op::kSet, n.set);
        break;
      case Kind::kBol:
        Push(Op::kBol);
        break;
      case Kind::kEol:
        Push(Op::kEol);
        break;
      case Kind::kCat:
        for (int k : n.kids) Emit(k);
        break;
      case Kind::kAlt:
        EmitAlternation(n.kids);
        break;
      case Kind::kStar: {
        int split = Push(Op::kSplit, Pc() + 1);
        Emit(n.kids[0]);
        Push(Op::kJmp, split);
        out_->prog_[static_cast<size_t>(split)].y = Pc();
        break;
      }
      case Kind::kPlus: {
        int start = Pc();
        Emit(n.kids[0]);
        Push(Op::kSplit, start, Pc() + 1);
        break;
      }
      case Kind::kQuest: {
        int split = Push(Op::kSplit, Pc() + 1);
        Emit(n.kids[0]);
        out_->prog_[static_cast<size_t>(split)].y = Pc();
        break;
      }
    }
  }

  void EmitAlternation(const std::vector<int>& kids) {
    using Op = LinearRegex::Op;
    std::vector<int> jumps;
    for (size_t i = 0; i + 1 < kids.size(); ++i) {
      int split = Push(Op::kSplit, Pc() + 1);
      Emit(kids[i]);
      jumps.push_back(Push(Op::kJmp));
      out_->prog_[static_cast<size_t>(split)].y = Pc();
    }
    Emit(kids.back());
    for (int j : jumps) out_->prog_[static_cast<size_t>(j)].x = Pc();
  }

  std::string_view p_;
  size_t pos_ = 0;
  std::string error_;
  std::vector<Node> nodes_;
  std::vector<ByteSet> sets_;
  LinearRegex* out_ = nullptr;
};

std::optional<LinearRegex> LinearRegex::Compile(std::string_view pattern, std::string* error) {
  LinearRegex re;
  RegexCompiler compiler(pattern);
  if (!compiler.Run(&re, error)) return std::nullopt;
  return re;
}

LinearRegex LinearRegex::MustCompile(std::string_view pattern) {
  std::string why;
  std::optional<LinearRegex> re = Compile(pattern, &why);
  if (!re) throw std::logic_error(fmt::format("regex {}: {}", pattern, why));
  return *std::move(re);
}

bool LinearRegex::AddThread(int pc, size_t pos, size_t size, uint32_t gen,
                            std::vector<uint32_t>& mark, std::vector<int>& list,
                            std::vector<int>& stack) const {
  stack.assign(1, pc);
  while (!stack.empty()) {
    const int at = stack.back();
    stack.pop_back();
    if (mark[static_cast<size_t>(at)] == gen) continue;
    mark[static_cast<size_t>(at)] = gen;
    const Inst& in = prog_[static_cast<size_t>(at)];
    switch (in.op) {
      case Op::kMatch:
        return true;
      case Op::kSet:
        list.push_back(at);
        break;
      case Op::kJmp:
        stack.push_back(in.x);
        break;
      case Op::kSplit:
        stack.push_back(in.y);
        stack.push_back(in.x);
        break;
      case Op::kBol:
        if (pos == 0) stack.push_back(at + 1);
        break;
      case Op::kEol:
        if (pos == size) stack.push_back(at + 1);
        break;
    }
  }
  return false;
}

bool LinearRegex::Search(std::string_view text) const {
  std::vector<uint32_t> mark(prog_.size(), 0);
  std::vector<int> now, next, stack;
  uint32_t gen = 1;
  for (size_t pos = 0;; ++pos, ++gen) {
    // Unanchored: a new thread starts at every position, as re.search does.
    for (int pc : next) {
      if (AddThread(pc, pos, text.size(), gen, mark, now, stack)) return true;
    }
    if (AddThread(0, pos, text.size(), gen, mark, now, stack)) return true;
    if (pos == text.size()) return false;
    next.clear();
    const auto byte = static_cast<unsigned char>(text[pos]);
    for (int pc : now) {
      if (sets_[static_cast<size_t>(prog_[static_cast<size_t>(pc)].x)].test(byte)) {
        next.push_back(pc + 1);
      }
    }
    now.clear();
  }
}

}  // namespace kvplan
