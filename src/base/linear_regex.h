// A regular-expression matcher that runs in time linear in the text (a
// Thompson NFA, no backtracking), for patterns that come from input: the
// `re:` ignore patterns of compressed-tensors and ModelOpt configs. std::regex
// backtracks (`(.*)*Z` never ends) and recurses per character (a long pattern
// or text overflows the stack).
//
// The subset is Python's `re` syntax that real configs use: literal text,
// escapes (\. \d \w \s and their negations), `.`, character classes with
// ranges and negation, groups `(...)` and `(?:...)`, alternation `|`,
// `*` `+` `?` (lazy forms too: the answer to "does it match" is the same),
// and the anchors `^` `$`. Anything else (counted repetition, lookaround,
// backreferences, flags) is refused when compiling, never misread.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

class LinearRegex {
 public:
  // The longest pattern accepted: real ignore patterns are under 200 bytes.
  static constexpr size_t kMaxPatternBytes = 4096;

  // The compiled pattern, or nullopt with `*error` saying what is outside
  // the subset (e.g. "counted repetition {m,n} at offset 4").
  static std::optional<LinearRegex> Compile(std::string_view pattern, std::string* error);

  // A pattern written in kvplan's own source; std::logic_error when outside
  // the subset (a bug, caught by the first test that runs it).
  static LinearRegex MustCompile(std::string_view pattern);

  // Python re.search: does the pattern match anywhere in `text`?
  bool Search(std::string_view text) const;

 private:
  enum class Op : uint8_t { kSet, kSplit, kJmp, kBol, kEol, kMatch };
  struct Inst {
    Op op;
    int x = 0;  // kSet: the set; kSplit, kJmp: the target
    int y = 0;  // kSplit: the second target
  };
  friend class RegexCompiler;

  // Adds pc and what it reaches without consuming a byte to `list`; true when
  // that reaches kMatch.
  bool AddThread(int pc, size_t pos, size_t size, uint32_t gen, std::vector<uint32_t>& mark,
                 std::vector<int>& list, std::vector<int>& stack) const;

  std::vector<Inst> prog_;
  std::vector<std::bitset<256>> sets_;
};

}  // namespace kvplan
