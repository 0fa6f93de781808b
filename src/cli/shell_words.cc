#include "cli/shell_words.h"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

#include "base/linear_regex.h"
#include "kvplan/error.h"

namespace kvplan::cli {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

bool AllDigits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  std::vector<ShellToken> Run() {
    while (i_ < s_.size()) Step();
    FlushWord();
    return std::move(out_);
  }

 private:
  void Step() {
    const char c = s_[i_];
    if (c == '\\') {
      Backslash();
    } else if (c == '\'') {
      SingleQuoted();
    } else if (c == '"') {
      DoubleQuoted();
    } else if (IsBlank(c)) {
      FlushWord();
      ++i_;
    } else if (c == '\n') {
      FlushWord();
      Push(ShellToken::Kind::kSeparator, "\n");
      ++i_;
    } else if (c == '#' && !in_word_) {
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;  // a comment runs to the end of the line
    } else if (c == '|' || c == '&' || c == ';' || c == '<' || c == '>') {
      Operator();
    } else {
      Append(c);
      ++i_;
    }
  }

  // True when the backslash at i_ ends the line: only blanks, then (CR)LF or the end.
  bool ContinuesLine(size_t* after) const {
    size_t j = i_ + 1;
    while (j < s_.size() && (s_[j] == ' ' || s_[j] == '\t')) ++j;
    if (j < s_.size() && s_[j] == '\r') ++j;
    if (j < s_.size() && s_[j] != '\n') return false;
    *after = j < s_.size() ? j + 1 : j;
    return true;
  }

  void Backslash() {
    size_t after = 0;
    if (ContinuesLine(&after)) {
      i_ = after;  // backslash-newline vanishes, joining the lines
      return;
    }
    Append(s_[i_ + 1]);  // ContinuesLine is false, so a character follows
    quoted_ = true;
    i_ += 2;
  }

  void SingleQuoted() {
    const size_t close = s_.find('\'', i_ + 1);
    if (close == std::string_view::npos) Unterminated("single");
    word_.append(s_.substr(i_ + 1, close - i_ - 1));
    in_word_ = quoted_ = true;
    i_ = close + 1;
  }

  void DoubleQuoted() {
    const size_t open = i_++;
    in_word_ = quoted_ = true;
    while (true) {
      if (i_ >= s_.size()) {
        i_ = open;
        Unterminated("double");
      }
      const char c = s_[i_];
      if (c == '"') {
        ++i_;
        return;
      }
      if (c == '\\' && i_ + 1 < s_.size()) {
        DoubleQuotedEscape();
      } else {
        word_ += c;
        ++i_;
      }
    }
  }

  // Inside double quotes a backslash escapes only $ ` " \ and the newline.
  void DoubleQuotedEscape() {
    const char next = s_[i_ + 1];
    if (next == '\n') {
      i_ += 2;
    } else if (next == '\r' && i_ + 2 < s_.size() && s_[i_ + 2] == '\n') {
      i_ += 3;
    } else if (next == '$' || next == '`' || next == '"' || next == '\\') {
      word_ += next;
      i_ += 2;
    } else {
      word_ += '\\';
      ++i_;
    }
  }

  void Operator() {
    const char c = s_[i_];
    const bool redirect = c == '<' || c == '>' || (c == '&' && Peek(1) == '>');
    if (redirect && in_word_ && !quoted_ && AllDigits(word_)) {
      word_.clear();  // the fd number of 2>&1: part of the redirection
      in_word_ = false;
    }
    FlushWord();
    std::string op(1, c);
    ++i_;
    if (c == '&' && (Peek(0) == '>' || Peek(0) == '&')) op += s_[i_++];
    if (c == '|' && (Peek(0) == '|' || Peek(0) == '&')) op += s_[i_++];
    if ((c == '>' || c == '<') && (Peek(0) == c || Peek(0) == '&' || Peek(0) == '|')) {
      op += s_[i_++];
    }
    if (op == "&>" && Peek(0) == '>') op += s_[i_++];
    Push(redirect ? ShellToken::Kind::kRedirect : ShellToken::Kind::kSeparator, op);
    out_.back().takes_target = redirect;
  }

  char Peek(size_t ahead) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }

  void Append(char c) {
    word_ += c;
    in_word_ = true;
  }

  void FlushWord() {
    if (in_word_) Push(ShellToken::Kind::kWord, word_);
    word_.clear();
    in_word_ = quoted_ = false;
  }

  void Push(ShellToken::Kind kind, std::string text) {
    out_.push_back(ShellToken{kind, std::move(text), false});
  }

  [[noreturn]] void Unterminated(const char* which) const {
    throw InputError(fmt::format(
        "unterminated {} quote in the launch command (opened at character {}); close it", which,
        i_ + 1));
  }

  std::string_view s_;
  size_t i_ = 0;
  std::string word_;
  bool in_word_ = false;  // a word is open, even an empty one from ''
  bool quoted_ = false;   // the open word has quoted or escaped parts
  std::vector<ShellToken> out_;
};

// Exact operator words only: "<|im_end|>" or ">x" could be a quoted engine value.
ShellToken ClassifyWord(const std::string& word) {
  // Linear-time matching: a pasted word can be any length (std::regex recursed
  // per character and overflowed the stack on a 40 KB word).
  static const LinearRegex kWithTarget = LinearRegex::MustCompile(R"(^[0-9]*(>|>>|>\||&>|&>>|<)$)");
  static const LinearRegex kToFd = LinearRegex::MustCompile(R"(^[0-9]*[<>]&([0-9]+|-)$)");
  if (word == "|" || word == "||" || word == "|&" || word == "&" || word == "&&" || word == ";") {
    return {ShellToken::Kind::kSeparator, word, false};
  }
  if (kWithTarget.Search(word)) return {ShellToken::Kind::kRedirect, word, true};
  if (kToFd.Search(word)) return {ShellToken::Kind::kRedirect, word, false};
  return {ShellToken::Kind::kWord, word, false};
}

}  // namespace

std::vector<ShellToken> TokenizeShell(std::string_view text) { return Lexer(text).Run(); }

std::vector<ShellToken> ClassifyWords(const std::vector<std::string>& words) {
  std::vector<ShellToken> out;
  for (const std::string& w : words) {
    if (w != "\\") out.push_back(ClassifyWord(w));
  }
  return out;
}

std::vector<ShellCommand> SplitCommands(const std::vector<ShellToken>& tokens) {
  std::vector<ShellCommand> out;
  ShellCommand current;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const ShellToken& t = tokens[i];
    if (t.kind == ShellToken::Kind::kRedirect) {
      if (t.takes_target && i + 1 < tokens.size() &&
          tokens[i + 1].kind == ShellToken::Kind::kWord) {
        ++i;  // the redirection's file or fd
      }
    } else if (t.kind == ShellToken::Kind::kSeparator) {
      if (!current.words.empty()) out.push_back(std::move(current));
      current = ShellCommand{{}, t.text};
    } else {
      current.words.push_back(t.text);
    }
  }
  if (!current.words.empty()) out.push_back(std::move(current));
  return out;
}

}  // namespace kvplan::cli
