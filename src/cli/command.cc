#include "cli/command.h"

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "base/format.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"
#include "report/fit_columns.h"

namespace kvplan::cli {

Option* Option::required() {
  impl_->required();
  return this;
}

Option* Option::check_range(double lo, double hi) {
  impl_->check(CLI::Range(lo, hi));
  return this;
}

Option* Option::delimiter(char sep) {
  impl_->delimiter(sep);
  return this;
}

Command::~Command() = default;

Command* Command::add_subcommand(const std::string& name, const std::string& description) {
  subcommands_.push_back(std::make_unique<Command>(impl_->add_subcommand(name, description)));
  return subcommands_.back().get();
}

template <typename T>
Option* Command::add_option(const std::string& name, T& value, const std::string& help) {
  options_.push_back(std::make_unique<Option>(impl_->add_option(name, value, help)));
  return options_.back().get();
}

template Option* Command::add_option(const std::string&, std::string&, const std::string&);
template Option* Command::add_option(const std::string&, int&, const std::string&);
template Option* Command::add_option(const std::string&, int64_t&, const std::string&);
template Option* Command::add_option(const std::string&, double&, const std::string&);
template Option* Command::add_option(const std::string&, std::vector<std::string>&,
                                     const std::string&);
template Option* Command::add_option(const std::string&, std::vector<int>&, const std::string&);
template Option* Command::add_option(const std::string&, std::vector<int64_t>&, const std::string&);
template Option* Command::add_option(const std::string&, std::vector<double>&, const std::string&);
template Option* Command::add_option(const std::string&, std::optional<int>&, const std::string&);
template Option* Command::add_option(const std::string&, std::optional<int64_t>&,
                                     const std::string&);
template Option* Command::add_option(const std::string&, std::optional<double>&,
                                     const std::string&);

Option* Command::add_flag(const std::string& name, bool& value, const std::string& help) {
  options_.push_back(std::make_unique<Option>(impl_->add_flag(name, value, help)));
  return options_.back().get();
}

void Command::allow_extras() { impl_->allow_extras(); }

void Command::callback(std::function<void()> action) { impl_->callback(std::move(action)); }

size_t Command::count(const std::string& name) const { return impl_->count(name); }

bool Command::parsed() const { return impl_->parsed(); }

std::vector<std::string> Command::remaining() const { return impl_->remaining(); }

namespace {

// An error line is one terminal line: whatever text a message quotes, it is
// cut here and its control bytes escaped (readers quote their own input
// shorter, with QuoteForError).
constexpr size_t kMessageMax = 2000;

// "unknown verb 'x' (expected one of: ...)" for a first word that names no verb.
std::string UnknownVerbMessage(CLI::App& app, const char* word) {
  std::string verbs;
  for (const CLI::App* sub : app.get_subcommands({})) {
    verbs += (verbs.empty() ? "" : ", ") + sub->get_name();
  }
  return fmt::format("unknown verb '{}' (expected one of: {})", word, verbs);
}

// CLI11 (2.1) writes each option's or verb's description on one line however
// long; help is output like any other, so descriptions are reflowed to the
// 100 columns (the description column is CLI11's 30): prose lines join into one
// paragraph, a line indented two or more spaces (an example command) stays a
// line of its own and continues four columns further in.
std::string ReflowDescription(const std::string& text, size_t width) {
  std::string out, paragraph;
  auto flush = [&] {
    if (!paragraph.empty()) out += WrapText(paragraph, 0, width);
    paragraph.clear();
  };
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    const size_t indent = std::min(line.find_first_not_of(' '), line.size());
    if (indent == line.size()) continue;
    if (indent >= 2) {
      flush();
      out += WrapText(line, indent + 4, width);
    } else {
      paragraph += (paragraph.empty() ? "" : " ") + line;
    }
  }
  flush();
  if (!out.empty()) out.pop_back();  // format_help ends the entry itself
  return out;
}

class FittedFormatter : public CLI::Formatter {
 public:
  std::string make_option_desc(const CLI::Option* opt) const override {
    return ReflowDescription(CLI::Formatter::make_option_desc(opt), Width());
  }
  std::string make_subcommand(const CLI::App* sub) const override {
    std::stringstream out;
    CLI::detail::format_help(out, sub->get_display_name(true),
                             ReflowDescription(sub->get_description(), Width()),
                             get_column_width());
    return out.str();
  }
  std::string make_description(const CLI::App* app) const override {
    return FitToColumns(CLI::Formatter::make_description(app));
  }

 private:
  size_t Width() const { return kTextColumns - get_column_width(); }
};

}  // namespace

int RunCommandLine(int argc, char** argv, const std::string& description,
                   const std::string& version,
                   const std::function<void(Command& app)>& register_verbs) {
  CLI::App app{description};
  // Before the verbs: each subcommand copies its parent's formatter.
  app.formatter(std::make_shared<FittedFormatter>());
  app.require_subcommand(1);
  app.set_version_flag("--version", version);
  Command root(&app);
  register_verbs(root);
  try {
    app.parse(argc, argv);
    return 0;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (argc > 1 && app.get_subcommands().empty() && argv[1][0] != '-') {
      fmt::print(stderr, "kvplan: error: {}\n", UnknownVerbMessage(app, argv[1]));
    } else {
      fmt::print(stderr, "kvplan: error: {}\n", EscapeControlBytes(e.what(), kMessageMax));
    }
    return kExitBadInput;
  } catch (const VerbExitCode& e) {
    return e.code;
  } catch (const InputError& e) {
    fmt::print(stderr, "kvplan: error: {}\n", EscapeControlBytes(e.what(), kMessageMax));
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "kvplan: internal error: {}\n", EscapeControlBytes(e.what(), kMessageMax));
    return 1;
  }
}

}  // namespace kvplan::cli
