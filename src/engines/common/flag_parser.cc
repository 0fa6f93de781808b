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

std::string UnknownFlagWarning(const std::string& engine, const std::string& flag) {
  return fmt::format(
      "{}: not one of the {} flags kvplan models; ignored, so this plan does not show its effect",
      flag, engine);
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
    }
  }
  return std::nullopt;
}

void FlagParser::Parse(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (!LooksLikeFlag(arg)) {
      if (positional_ != nullptr && !positional_->has_value()) {
        *positional_ = arg;
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
    const Spec* spec = Find(name);
    if (spec == nullptr) {
      if (auto near = NearMiss(name)) {
        throw InputError(
            fmt::format("unknown {} flag '{}'; did you mean '{}'?", engine_, name, *near));
      }
      unknown_.push_back(name);
      // Skip its value, if it has one: argparse would too.
      if (!value && i + 1 < argv.size() && !LooksLikeFlag(argv[i + 1])) ++i;
      continue;
    }
    if (spec->kind == Kind::kBool) {
      if (value && *value != "true" && *value != "True" && *value != "1") {
        throw InputError(fmt::format("{} takes no value, got '{}'", name, *value));
      }
      spec->set(name, "");
    } else {
      if (!value) {
        if (i + 1 >= argv.size() || LooksLikeFlag(argv[i + 1])) {
          throw InputError(fmt::format("{} expects a value", name));
        }
        value = argv[++i];
      }
      spec->set(name, *value);
    }
    if (!spec->ignored) given_.push_back(spec->names.front());
  }
}

}  // namespace kvplan
