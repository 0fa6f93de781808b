#include "engines/common/flag_table.h"

#include <map>
#include <memory>
#include <mutex>

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/embedded_data.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

EngineFlag ReadFlag(const nlohmann::json& j) {
  EngineFlag f;
  f.names = j.at("names").get<std::vector<std::string>>();
  const std::string kind = j.value("kind", "value");
  f.kind = kind == "flag"   ? EngineFlag::Kind::kFlag
           : kind == "bool" ? EngineFlag::Kind::kBool
                            : EngineFlag::Kind::kValue;
  // argparse's BooleanOptionalAction registers --no-NAME beside each --NAME.
  if (f.kind == EngineFlag::Kind::kBool) {
    std::vector<std::string> with_no;
    for (const std::string& n : f.names) {
      with_no.push_back(n);
      if (n.rfind("--", 0) == 0) with_no.push_back("--no-" + n.substr(2));
    }
    f.names = with_no;
  }
  if (j.contains("nargs")) {
    const auto& n = j["nargs"];
    f.nargs = n.is_string() ? n.get<std::string>() : std::to_string(n.get<int>());
  }
  if (j.contains("choices")) {
    for (const auto& c : j["choices"]) {
      if (c.is_string()) f.choices.push_back(c.get<std::string>());
      if (c.is_number_integer()) f.choices.push_back(std::to_string(c.get<int64_t>()));
    }
    // A choice that is not text (a float, None) cannot be compared as text:
    // do not check such a flag's values at all.
    if (f.choices.size() != j["choices"].size()) f.choices.clear();
  }
  f.deprecated = j.value("deprecated", "");
  f.new_flag = j.value("new_flag", "");
  return f;
}

std::unique_ptr<FlagTable> LoadTable(std::string_view engine, std::string_view release) {
  auto text = FindEmbeddedFile(fmt::format("flags/{}/{}.json", engine, release));
  if (!text) return nullptr;
  nlohmann::json j = nlohmann::json::parse(*text);
  auto t = std::make_unique<FlagTable>();
  t->engine = j.at("engine").get<std::string>();
  t->release = j.at("release").get<std::string>();
  t->prog = j.at("prog").get<std::string>();
  t->allow_abbrev = j.value("allow_abbrev", true);
  for (const auto& f : j.at("flags")) t->flags.push_back(ReadFlag(f));
  if (j.contains("environment")) {
    t->environment = j["environment"].get<std::vector<std::string>>();
  }
  return t;
}

}  // namespace

std::string PyRepr(const std::string& s) {
  const char q = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    if (c == q || c == '\\') out += '\\';
    out += c;
  }
  return out + q;
}

const EngineFlag* FlagTable::Resolve(std::string_view name) const {
  for (const EngineFlag& f : flags) {
    for (const std::string& n : f.names) {
      if (n == name) return &f;
    }
  }
  // argparse (allow_abbrev): a unique prefix of long options selects it.
  if (!allow_abbrev || name.size() < 3 || name.rfind("--", 0) != 0) return nullptr;
  const EngineFlag* match = nullptr;
  std::vector<std::string> matches;
  bool several = false;
  for (const EngineFlag& f : flags) {
    for (const std::string& n : f.names) {
      if (n.rfind(name, 0) != 0) continue;
      matches.push_back(n);
      if (match != nullptr && match != &f) several = true;
      match = &f;
    }
  }
  if (several) {
    throw InputError(fmt::format("{}: error: ambiguous option: {} could match {}", prog, name,
                                 fmt::join(matches, ", ")));
  }
  return match;
}

const FlagTable* FindFlagTable(std::string_view engine, std::string_view release) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<FlagTable>> cache;
  std::lock_guard<std::mutex> lock(mu);
  const std::string key = fmt::format("{}/{}", engine, release);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, LoadTable(engine, release)).first;
  return it->second.get();
}

std::vector<std::string> FlagTableReleases(std::string_view engine) {
  std::vector<std::string> out;
  const std::string prefix = fmt::format("flags/{}/", engine);
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path.rfind(prefix, 0) != 0 || f.path.size() < prefix.size() + 5) continue;
    std::string_view rest = f.path.substr(prefix.size());
    out.emplace_back(rest.substr(0, rest.size() - 5));  // drop ".json"
  }
  return out;
}

const FlagTable* NearestOlderFlagTable(
    std::string_view engine, int64_t release_key,
    const std::function<std::optional<int64_t>(const std::string&)>& key_of) {
  std::optional<int64_t> best;
  std::string best_release;
  for (const std::string& r : FlagTableReleases(engine)) {
    const std::optional<int64_t> k = key_of(r);
    if (!k || *k > release_key || (best && *k <= *best)) continue;
    best = k;
    best_release = r;
  }
  return best ? FindFlagTable(engine, best_release) : nullptr;
}

std::string OlderFlagTableNote(const std::string& engine_name, const std::string& release,
                               const FlagTable& table) {
  return fmt::format(
      "{} {}'s flags are checked against {} {}'s parser (the nearest older one kvplan has); "
      "flags added since are unknown to kvplan: warnings, not errors",
      engine_name, release, engine_name, table.release);
}

std::string UnrecognizedArgumentsError(const std::string& prog,
                                       const std::vector<std::string>& words) {
  return fmt::format("{}: error: unrecognized arguments: {}", prog, fmt::join(words, " "));
}

std::string InvalidChoiceError(const EngineFlag& flag, const std::string& value) {
  std::vector<std::string> quoted;
  for (const std::string& c : flag.choices) quoted.push_back(PyRepr(c));
  return fmt::format("argument {}: invalid choice: {} (choose from {})", fmt::join(flag.names, "/"),
                     PyRepr(value), fmt::join(quoted, ", "));
}

}  // namespace kvplan
