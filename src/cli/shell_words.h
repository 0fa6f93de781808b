// Shell-style splitting of a pasted command line, enough of POSIX sh to read the
// launch commands people paste from READMEs, issues and scripts: quotes, backslash
// escapes and line continuations, comments, command separators and redirections.
// Nothing is expanded ($VAR stays literal) and nothing is run.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kvplan::cli {

struct ShellToken {
  enum class Kind { kWord, kSeparator, kRedirect };
  Kind kind = Kind::kWord;
  std::string text;           // the word, or the operator ("|", "&&", "\n", ">", "2>&1")
  bool takes_target = false;  // kRedirect only: the next word is its file or fd
};

// Splits one pasted string. Unquoted newlines, ';', '&', '&&', '|', '||' become
// separators; '>', '>>', '<', '>&', '&>' become redirections (a leading fd number such
// as the 2 of 2>&1 is dropped). A backslash followed only by blanks up to the end of
// the line continues the line, as copy-pasted commands often carry trailing blanks.
// Throws InputError on an unterminated quote.
std::vector<ShellToken> TokenizeShell(std::string_view text);

// Words already split by the user's shell. Only words that are whole operators
// ("|", "&", "2>&1", "> file") are classified, as they reach kvplan only when a
// command was pasted through an unquoted $(...); a lone "\" is dropped likewise.
std::vector<ShellToken> ClassifyWords(const std::vector<std::string>& words);

// One simple command: its words, and the separator that preceded it ("" for the first).
struct ShellCommand {
  std::vector<std::string> words;
  std::string separator_before;
};

// Groups tokens into simple commands, dropping redirections and their targets.
std::vector<ShellCommand> SplitCommands(const std::vector<ShellToken>& tokens);

}  // namespace kvplan::cli
