// kvplan's view of a command line: verbs register their options on a Command,
// and only command.cc sees CLI11. CLI11 is a large header-only library; kept
// behind this interface it is compiled once instead of once per verb.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace kvplan::cli {

// One registered option. Methods return this, so they chain as CLI11's do.
class Option {
 public:
  explicit Option(CLI::Option* impl) : impl_(impl) {}
  Option* required();
  Option* check_range(double lo, double hi);  // refuses values outside [lo, hi]
  Option* delimiter(char sep);                // "a,b,c" gives three values

 private:
  CLI::Option* impl_;
};

// One verb (or the program itself): options, flags, sub-verbs and the action.
class Command {
 public:
  explicit Command(CLI::App* impl) : impl_(impl) {}
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;
  ~Command();

  Command* add_subcommand(const std::string& name, const std::string& description);
  // T: std::string, int, int64_t, double, a std::vector of std::string, int,
  // int64_t or double, or a std::optional of int, int64_t or double
  // (explicitly instantiated in command.cc).
  template <typename T>
  Option* add_option(const std::string& name, T& value, const std::string& help = "");
  Option* add_flag(const std::string& name, bool& value, const std::string& help = "");
  void allow_extras();  // unknown words stay in remaining() (the engine's own flags)
  void callback(std::function<void()> action);

  size_t count(const std::string& name) const;  // how often the option was given
  bool parsed() const;                          // this verb was named on the command line
  std::vector<std::string> remaining() const;

 private:
  CLI::App* impl_;
  std::vector<std::unique_ptr<Option>> options_;
  std::vector<std::unique_ptr<Command>> subcommands_;
};

// Thrown by a verb whose work ran but did not all succeed (e.g. ingest with
// some bad logs): RunCommandLine returns `code` without printing anything.
struct VerbExitCode {
  int code = 1;
};

// Parses argv with the verbs `register_verbs` adds and runs the verb named.
// Returns the exit code: CLI11's for help and version, kExitBadInput (one line
// on stderr) for a bad command line or an InputError, 1 for anything else.
int RunCommandLine(int argc, char** argv, const std::string& description,
                   const std::string& version,
                   const std::function<void(Command& app)>& register_verbs);

}  // namespace kvplan::cli
