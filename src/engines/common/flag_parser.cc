#include "engines/common/flag_parser.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include <fmt/core.h>

#include "kvplan/error.h"

namespace kvplan {
namespace {

bool LooksLikeFlag(std::string_view s) {
  if (s.size() < 2 || s[0] != '-') return false;
  // A negative number is a value, not a flag.
  return !(std::isdigit(static_cast<unsigned char>(s[1])) || s[1] == '.');
}

int64_t ParseInt(const std::string& flag, const std::string& v) {
  int64_t out = 0;
  const char* end = v.data() + v.size();
  auto [p, ec] = std::from_chars(v.data(), end, out);
  if (ec != std::errc() || p != end || v.empty()) {
    throw InputError(fmt::format("{} expects an integer, got '{}'", flag, v));
  }
  return out;
}

double ParseDouble(const std::string& flag, const std::string& v) {
  // std::from_chars for double is not in g++ 12's libstdc++ for all targets;
  // strtod with a full-consumption check is equivalent here.
  char* end = nullptr;
  double out = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size()) {
    throw InputError(fmt::format("{} expects a number, got '{}'", flag, v));
  }
  if (std::isnan(out) || std::isinf(out)) {
    throw InputError(fmt::format("{} expects a finite number, got '{}'", flag, v));
  }
  return out;
}

template <typename T>
void Store(std::optional<T>* out, const std::string& flag, T value) {
  if (out->has_value() && **out != value) {
    throw InputError(fmt::format("{} is given twice with different values", flag));
  }
  *out = std::move(value);
}

}  // namespace

int EditDistance(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

FlagParser::FlagParser(std::string engine) : engine_(std::move(engine)) {}

void FlagParser::Int(std::vector<std::string> names, std::optional<int64_t>* out) {
  specs_.push_back(
      {std::move(names), Kind::kValue,
       [out](const std::string& f, const std::string& v) { Store(out, f, ParseInt(f, v)); }});
}

void FlagParser::Double(std::vector<std::string> names, std::optional<double>* out) {
  specs_.push_back(
      {std::move(names), Kind::kValue,
       [out](const std::string& f, const std::string& v) { Store(out, f, ParseDouble(f, v)); }});
}

void FlagParser::String(std::vector<std::string> names, std::optional<std::string>* out) {
  specs_.push_back({std::move(names), Kind::kValue,
                    [out](const std::string& f, const std::string& v) { Store(out, f, v); }});
}

void FlagParser::Bool(std::vector<std::string> names, std::optional<bool>* out) {
  specs_.push_back({std::move(names), Kind::kBool,
                    [out](const std::string& f, const std::string&) { Store(out, f, true); }});
}

void FlagParser::BoolFalse(std::vector<std::string> names, std::optional<bool>* out) {
  specs_.push_back({std::move(names), Kind::kBool,
                    [out](const std::string& f, const std::string&) { Store(out, f, false); }});
}

void FlagParser::Ignored(std::vector<std::string> names, bool takes_value) {
  specs_.push_back({std::move(names), takes_value ? Kind::kValue : Kind::kBool,
                    [](const std::string&, const std::string&) {}, true});
}

void FlagParser::Positional(std::string name, std::optional<std::string>* out) {
  positional_name_ = std::move(name);
  positional_ = out;
}

std::vector<std::pair<std::string, std::string>> TakeEnvironment(std::vector<std::string>* argv,
                                                                 const std::string& prefix) {
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> rest;
  for (const std::string& word : *argv) {
    const size_t eq = word.find('=');
    if (word.rfind(prefix, 0) == 0 && eq != std::string::npos && eq > prefix.size()) {
      env.emplace_back(word.substr(0, eq), word.substr(eq + 1));
    } else {
      rest.push_back(word);
    }
  }
  *argv = std::move(rest);
  return env;
}

bool EnvSwitchOn(const std::string& value) {
  std::string v = value;
  for (char& ch : v) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return v == "1" || v == "true";
}

namespace {

// What an unmodelled flag may change, read from its name (the engines name
// their memory and batching flags by these words); "" when nothing says.
std::string WhatItMayChange(std::string_view flag) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"cuda-graph", "CUDA-graph memory"},
      {"kv-cache", "the KV cache"},
      {"cache", "cache memory"},
      {"offload", "GPU memory (offloading)"},
      {"swap", "host and GPU memory"},
      {"mem", "memory"},
      {"parallel", "parallelism and per-GPU memory"},
      {"quant", "weight bytes"},
      {"dtype", "bytes per weight or KV token"},
      {"lora", "LoRA adapter memory"},
      {"speculative", "speculative-decoding memory"},
      {"max-", "batch limits, activation memory and KV capacity"},
      {"prefill", "batch limits and activation memory"},
      {"batch", "batch limits and activation memory"},
      {"compil", "speed and compile-time memory"},
      {"backend", "speed and workspace memory"},
  };
  for (const auto& [word, what] : kWords) {
    if (flag.find(word) != std::string_view::npos) return what;
  }
  return "";
}

}  // namespace

std::string UnknownFlagWarning(const std::string& engine, const std::string& flag) {
  // An environment variable (NAME=value) kvplan's planner does not read.
  if (!flag.empty() && flag[0] != '-' && flag.find('=') != std::string::npos) {
    return fmt::format(
        "{}: an environment variable the {} planner does not read; ignored, so this plan does "
        "not show its effect",
        flag, engine);
  }
  const std::string what = WhatItMayChange(flag);
  return fmt::format(
      "{}: not one of the {} flags kvplan models; ignored, so this plan does not show its "
      "effect{}",
      flag, engine, what.empty() ? "" : fmt::format(" (it may change {})", what));
}

const FlagParser::Spec* FlagParser::Find(std::string_view name) const {
  for (const Spec& s : specs_) {
    for (const std::string& n : s.names) {
      if (n == name) return &s;
    }
  }
  // argparse also accepts '_' for '-' in some engines' aliases; accept both.
  // Only past a leading "--": a word such as "-" or "-=1" has nothing there.
  if (name.size() <= 2) return nullptr;
  std::string alt(name);
  std::replace(alt.begin() + 2, alt.end(), '_', '-');
  if (alt != name) return Find(alt);
  return nullptr;
}

std::optional<std::string> FlagParser::NearMiss(std::string_view name) const {
  for (const Spec& s : specs_) {
    if (s.ignored) continue;
    for (const std::string& n : s.names) {
      int d = EditDistance(name, n);
      if (d > 0 && d <= 2 && n.size() > 5) return n;
      // A short alias written as a long one ("--tp" for vLLM's "-tp"), too short for the above.
      if (n.size() > 1 && n[1] != '-' && name == "-" + n) return n;
    }
  }
  return std::nullopt;
}

void FlagParser::UseEngineParser(const FlagTable* table, bool underscores) {
  table_ = table;
  underscores_ = underscores;
}

void FlagParser::UseOlderEngineParser(const FlagTable* table, bool underscores,
                                      std::string release) {
  UseEngineParser(table, underscores);
  newer_release_ = std::move(release);
}

namespace {

// How many words after position i are the values of a flag the engine has
// and kvplan does not model, as argparse counts them (nargs).
size_t EngineValueCount(const EngineFlag& f, const std::vector<std::string>& argv, size_t i,
                        bool has_inline_value) {
  if (f.kind != EngineFlag::Kind::kValue || has_inline_value) return 0;
  size_t free = 0;
  while (i + 1 + free < argv.size() && !LooksLikeFlag(argv[i + 1 + free])) ++free;
  if (f.nargs.empty()) return std::min<size_t>(free, 1);
  if (f.nargs == "?") return std::min<size_t>(free, 1);
  if (f.nargs == "+" || f.nargs == "*") return free;
  return std::min<size_t>(free, static_cast<size_t>(std::max(0, std::atoi(f.nargs.c_str()))));
}

}  // namespace

const FlagParser::Spec* FlagParser::FindByTable(const std::vector<std::string>& argv, size_t i,
                                                const std::string& name,
                                                const std::optional<std::string>& value,
                                                size_t* skip_to) {
  std::string lookup = name;
  if (underscores_ && lookup.size() > 2) std::replace(lookup.begin() + 2, lookup.end(), '_', '-');
  const EngineFlag* ef = table_->Resolve(lookup);
  if (ef == nullptr && !newer_release_.empty() && !UnderscoreSpelling(lookup)) {
    return FindNewerThanTable(argv, i, name, value, skip_to);
  }
  if (ef == nullptr) {
    // argparse reports every word it could not place, the flag's value too.
    unrecognized_.push_back(argv[i]);
    if (!value && i + 1 < argv.size() && !LooksLikeFlag(argv[i + 1])) {
      unrecognized_.push_back(argv[++i]);
    }
    *skip_to = i;
    return nullptr;
  }
  current_ = ef;
  if (const Spec* spec = ModelledSpec(*ef, lookup)) return spec;
  // The engine has it; kvplan does not model it: skip its values, warn.
  const size_t n = EngineValueCount(*ef, argv, i, value.has_value());
  if (!ef->choices.empty()) {
    for (size_t k = 1; k <= n; ++k) CheckChoice(argv[i + k]);
    if (value) CheckChoice(*value);
  }
  unknown_.push_back(name);
  *skip_to = i + n;
  return nullptr;
}

// The spec for the name the user gave (or abbreviated) of an engine flag,
// else for its other names; a BooleanOptionalAction's --no-X never falls back
// to X's spec, which would store the opposite.
const FlagParser::Spec* FlagParser::ModelledSpec(const EngineFlag& ef,
                                                 const std::string& lookup) const {
  std::string given;
  for (const std::string& n : ef.names) {
    if (n == lookup) given = n;
  }
  for (const std::string& n : ef.names) {
    if (given.empty() && n.rfind(lookup, 0) == 0) given = n;
  }
  if (const Spec* spec = Find(given)) return spec;
  const bool negative = ef.kind == EngineFlag::Kind::kBool && given.rfind("--no-", 0) == 0;
  for (const std::string& n : ef.names) {
    if ((n.rfind("--no-", 0) == 0) != negative && ef.kind == EngineFlag::Kind::kBool) continue;
    if (const Spec* spec = Find(n)) return spec;
  }
  return nullptr;
}

// argparse: "-O3" is the short option "-O" with the value "3" when "-O3"
// itself is no option (vLLM's -O, -q, -tp take values this way).
void FlagParser::SplitAttachedShortValue(std::string* name,
                                         std::optional<std::string>* value) const {
  if (value->has_value() || name->size() <= 2 || (*name)[1] == '-') return;
  try {
    if (table_->Resolve(*name) != nullptr) return;
  } catch (const InputError&) {
    return;
  }
  const EngineFlag* shortf = table_->Resolve(name->substr(0, 2));
  if (shortf == nullptr || shortf->kind != EngineFlag::Kind::kValue) return;
  *value = name->substr(2);
  name->resize(2);
}

// `--a_b` for a flag the table has as `--a-b`, under a parser that does not read one as the other
// (SGLang's plain argparse): refused at any release, since no later parser reads it either.
bool FlagParser::UnderscoreSpelling(const std::string& name) const {
  if (underscores_ || name.size() <= 2 || name.find('_', 2) == std::string::npos) return false;
  std::string dashed = name;
  std::replace(dashed.begin() + 2, dashed.end(), '_', '-');
  for (const EngineFlag& f : table_->flags) {
    if (std::find(f.names.begin(), f.names.end(), dashed) != f.names.end()) return true;
  }
  return false;
}

// A flag an older release's parser lacks, at a release that may have added it: kvplan reads it
// when it models it; a near miss of a flag it models is a typo, refused as without a table (no
// later parser makes it one kvplan reads); any other is skipped (with the word after it, as
// argparse would take a value) and named in a warning with the table.
const FlagParser::Spec* FlagParser::FindNewerThanTable(const std::vector<std::string>& argv,
                                                       size_t i, const std::string& name,
                                                       const std::optional<std::string>& value,
                                                       size_t* skip_to) {
  if (const Spec* spec = Find(name)) return spec;
  if (auto near = NearMiss(name)) {
    throw InputError(fmt::format("unknown {} flag '{}'; did you mean '{}'?", engine_, name, *near));
  }
  warnings_.push_back(fmt::format(
      "{}: not in {} {}'s parser, the nearest older one kvplan has; {} {} may have added it, or "
      "may refuse it; ignored, so this plan does not show its effect",
      name, engine_, table_->release, engine_, newer_release_));
  if (!value && i + 1 < argv.size() && !LooksLikeFlag(argv[i + 1])) ++i;
  *skip_to = i;
  return nullptr;
}

void FlagParser::CheckChoice(const std::string& value) {
  if (current_ == nullptr || current_->choices.empty()) return;
  for (const std::string& own : own_choice_checks_) {
    if (std::find(current_->names.begin(), current_->names.end(), own) != current_->names.end()) {
      return;
    }
  }
  if (std::find(current_->choices.begin(), current_->choices.end(), value) !=
      current_->choices.end()) {
    return;
  }
  if (!newer_release_.empty()) {
    warnings_.push_back(fmt::format(
        "{} {}: not among {} {}'s choices for it, the nearest older parser kvplan has; {} {} may "
        "accept it",
        current_->names.front(), value, engine_, table_->release, engine_, newer_release_));
    return;
  }
  throw InputError(
      fmt::format("{}: error: {}", table_->prog, InvalidChoiceError(*current_, value)));
}

const FlagParser::Spec* FlagParser::FindWithoutTable(const std::vector<std::string>& argv, size_t i,
                                                     const std::string& name,
                                                     const std::optional<std::string>& value,
                                                     size_t* skip_to) {
  if (const Spec* spec = Find(name)) return spec;
  if (auto near = NearMiss(name)) {
    throw InputError(fmt::format("unknown {} flag '{}'; did you mean '{}'?", engine_, name, *near));
  }
  unknown_.push_back(name);
  // Skip its value, if it has one: argparse would too.
  if (!value && i + 1 < argv.size() && !LooksLikeFlag(argv[i + 1])) ++i;
  *skip_to = i;
  return nullptr;
}

void FlagParser::Apply(const Spec& spec, const std::vector<std::string>& argv, size_t* i,
                       const std::string& name, std::optional<std::string> value) {
  if (spec.kind == Kind::kBool) {
    if (value && *value != "true" && *value != "True" && *value != "1") {
      throw InputError(fmt::format("{} takes no value, got '{}'", name, *value));
    }
    spec.set(name, "");
  } else {
    if (!value) {
      if (*i + 1 >= argv.size() || LooksLikeFlag(argv[*i + 1])) {
        throw InputError(fmt::format("{} expects a value", name));
      }
      value = argv[++*i];
    }
    CheckChoice(*value);
    spec.set(name, *value);
  }
  if (!spec.ignored) given_.push_back(spec.names.front());
}

void FlagParser::Parse(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (!LooksLikeFlag(arg)) {
      if (positional_ != nullptr && !positional_->has_value()) {
        *positional_ = arg;
        continue;
      }
      if (table_ != nullptr) {
        unrecognized_.push_back(arg);
        continue;
      }
      throw InputError(fmt::format(
          "unexpected argument '{}' in the {} flags (expected --flag [value])", arg, engine_));
    }
    std::string name = arg;
    std::optional<std::string> value;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
    }
    if (table_ != nullptr) SplitAttachedShortValue(&name, &value);
    current_ = nullptr;
    size_t skip_to = i;
    const Spec* spec = table_ != nullptr ? FindByTable(argv, i, name, value, &skip_to)
                                         : FindWithoutTable(argv, i, name, value, &skip_to);
    if (spec == nullptr) {
      i = skip_to;
      continue;
    }
    Apply(*spec, argv, &i, name, value);
  }
  if (!unrecognized_.empty()) {
    std::string msg = UnrecognizedArgumentsError(table_->prog, unrecognized_);
    if (auto near = NearMiss(unrecognized_.front()))
      msg += fmt::format(" (did you mean '{}'?)", *near);
    throw InputError(msg);
  }
}

}  // namespace kvplan
