#include "engines/trtllm/flags.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <string_view>

#include <fmt/core.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/embedded_data.h"
#include "base/untrusted_text.h"
#include "engines/common/flag_table.h"
#include "engines/common/suggested_flags.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

ClickOption ReadClickOption(const nlohmann::json& j) {
  ClickOption o;
  o.names = j.at("names").get<std::vector<std::string>>();
  o.takes_value = j.value("kind", "value") != "flag";
  o.treatment = j.value("treatment", "not_modelled");
  if (j.contains("choices")) o.choices = j["choices"].get<std::vector<std::string>>();
  if (j.contains("choice_aliases")) {
    o.choice_alias = j["choice_aliases"].get<std::map<std::string, std::string>>();
  }
  return o;
}

std::unique_ptr<TrtllmFlagTable> LoadClickTable(const std::string& release) {
  auto text = FindEmbeddedFile(fmt::format("flags/trtllm/{}.json", release));
  if (!text) return nullptr;
  nlohmann::json j = nlohmann::json::parse(*text);
  auto t = std::make_unique<TrtllmFlagTable>();
  t->release = j.at("release").get<std::string>();
  t->prog = j.at("prog").get<std::string>();
  for (const auto& o : j.at("flags")) t->options.push_back(ReadClickOption(o));
  if (j.contains("yaml")) {
    t->yaml_fields = j["yaml"].get<std::map<std::string, std::vector<std::string>>>();
  }
  return t;
}

// difflib.SequenceMatcher.find_longest_match without junk (kvplan's words are
// far below difflib's 200-character autojunk threshold): the longest common
// block, the earliest in `a` and then in `b` among equals.
std::array<size_t, 3> LongestMatch(std::string_view a, std::string_view b, size_t alo, size_t ahi,
                                   size_t blo, size_t bhi) {
  std::array<size_t, 3> best{alo, blo, 0};
  std::vector<size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (size_t i = alo; i < ahi; ++i) {
    std::fill(cur.begin(), cur.end(), 0);
    for (size_t j = blo; j < bhi; ++j) {
      if (a[i] != b[j]) continue;
      size_t k = cur[j + 1] = (j > blo ? prev[j] : 0) + 1;
      if (k > best[2]) best = {i + 1 - k, j + 1 - k, k};
    }
    std::swap(prev, cur);
  }
  return best;
}

// SequenceMatcher(None, a, b).ratio(): 2 * matches / (len(a) + len(b)), the
// matches counted over get_matching_blocks' recursive split.
double DifflibRatio(std::string_view a, std::string_view b) {
  if (a.empty() && b.empty()) return 1.0;
  size_t matches = 0;
  std::vector<std::array<size_t, 4>> queue{{0, a.size(), 0, b.size()}};
  while (!queue.empty()) {
    auto [alo, ahi, blo, bhi] = queue.back();
    queue.pop_back();
    auto [i, j, k] = LongestMatch(a, b, alo, ahi, blo, bhi);
    if (k == 0) continue;
    matches += k;
    if (alo < i && blo < j) queue.push_back({alo, i, blo, j});
    if (i + k < ahi && j + k < bhi) queue.push_back({i + k, ahi, j + k, bhi});
  }
  return 2.0 * static_cast<double>(matches) / static_cast<double>(a.size() + b.size());
}

// click's parser: the long options (more than one character after the
// prefix, or a "--" prefix) are the ones "Did you mean" searches.
std::vector<std::string> LongOptions(const TrtllmFlagTable& table) {
  std::vector<std::string> out;
  for (const ClickOption& o : table.options) {
    for (const std::string& n : o.names) {
      if (n.size() > 2) out.push_back(n);
    }
  }
  return out;
}

// click's UsageError as it prints it ("Error: " and the message), after the
// command and release, as argparse's refusals name their prog.
std::string ClickError(const TrtllmFlagTable& table, const std::string& message) {
  return fmt::format("{} {}: Error: {}", table.prog, table.release, message);
}

// click.exceptions.NoSuchOption.format_message.
[[noreturn]] void ThrowNoSuchOption(const TrtllmFlagTable& table, const std::string& opt,
                                    bool is_long) {
  std::string message = fmt::format("No such option: {}", EscapeForError(opt));
  std::vector<std::string> near =
      is_long ? CloseMatches(opt, LongOptions(table)) : std::vector<std::string>{};
  std::sort(near.begin(), near.end());
  if (near.size() == 1) message += fmt::format(" Did you mean {}?", near[0]);
  if (near.size() > 1) message += fmt::format(" (Possible options: {})", fmt::join(near, ", "));
  throw InputError(ClickError(table, message));
}

// click.Choice.convert's failure, as click.BadParameter shows it.
void CheckClickChoice(const TrtllmFlagTable& table, const ClickOption& o, std::string value) {
  if (o.choices.empty()) return;
  if (auto alias = o.choice_alias.find(value); alias != o.choice_alias.end()) value = alias->second;
  if (std::find(o.choices.begin(), o.choices.end(), value) != o.choices.end()) return;
  std::vector<std::string> hints, quoted;
  for (const std::string& n : o.names) hints.push_back(fmt::format("'{}'", n));
  for (const std::string& c : o.choices) quoted.push_back(PyRepr(c));
  // click's ngettext: "{value!r} is not {choice}." for one choice, "one of" for more.
  throw InputError(
      ClickError(table, fmt::format("Invalid value for {}: {} is not {}{}.",
                                    fmt::join(hints, " / "), PyRepr(EscapeForError(value)),
                                    quoted.size() == 1 ? "" : "one of ", fmt::join(quoted, ", "))));
}

// What yaml.safe_load makes of an unquoted scalar, as pydantic shows it:
// input_value (Python's repr) and input_type.
std::pair<std::string, std::string> PythonScalar(const std::string& v) {
  static const std::regex kNull("~|null|Null|NULL|");
  static const std::regex kTrue("yes|Yes|YES|true|True|TRUE|on|On|ON");
  static const std::regex kFalse("no|No|NO|false|False|FALSE|off|Off|OFF");
  static const std::regex kInt("[-+]?(0|[1-9][0-9_]*)");
  static const std::regex kFloat("[-+]?([0-9][0-9_]*)?\\.[0-9_]*([eE][-+][0-9]+)?");
  if (std::regex_match(v, kNull)) return {"None", "NoneType"};
  if (std::regex_match(v, kTrue)) return {"True", "bool"};
  if (std::regex_match(v, kFalse)) return {"False", "bool"};
  std::string digits;
  for (char c : v) {
    if (c != '_' && c != '+') digits += c;
  }
  if (std::regex_match(v, kInt)) return {digits, "int"};
  if (std::regex_match(v, kFloat)) {
    std::string f = fmt::format("{}", std::stod(digits));
    if (f.find_first_of(".en") == std::string::npos) f += ".0";
    return {f, "float"};
  }
  return {PyRepr(EscapeForError(v)), "str"};
}

bool HasField(const TrtllmFlagTable& table, const std::string& model, const std::string& field) {
  auto it = table.yaml_fields.find(model);
  if (it == table.yaml_fields.end()) return true;  // a model the table lacks: not checked
  return std::find(it->second.begin(), it->second.end(), field) != it->second.end();
}

// pydantic_core.ValidationError's text for extra="forbid", on one line.
[[noreturn]] void ThrowExtraForbidden(const std::string& origin, const std::string& model,
                                      const std::vector<std::string>& errors) {
  throw InputError(fmt::format("{}: {} validation error{} for {}; {}", EscapeForError(origin),
                               errors.size(), errors.size() == 1 ? "" : "s", model,
                               fmt::join(errors, "; ")));
}

std::string ExtraForbidden(const std::string& field, const std::string& value,
                           const std::string& type) {
  return fmt::format(
      "{}: Extra inputs are not permitted [type=extra_forbidden, input_value={}, input_type={}]",
      EscapeForError(field), value, type);
}

}  // namespace

const ClickOption* TrtllmFlagTable::Find(const std::string& name) const {
  for (const ClickOption& o : options) {
    if (std::find(o.names.begin(), o.names.end(), name) != o.names.end()) return &o;
  }
  return nullptr;
}

const TrtllmFlagTable* TrtllmFlagTableFor(const std::string& release) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<TrtllmFlagTable>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(release);
  if (it == cache.end()) it = cache.emplace(release, LoadClickTable(release)).first;
  return it->second.get();
}

std::vector<std::string> CloseMatches(const std::string& word,
                                      const std::vector<std::string>& possibilities) {
  std::vector<std::pair<double, std::string>> scored;
  for (const std::string& x : possibilities) {
    // get_close_matches: SequenceMatcher with seq1 = the candidate, seq2 = word.
    double r = DifflibRatio(x, word);
    if (r >= 0.6) scored.emplace_back(r, x);
  }
  // heapq.nlargest(3, (score, x)): the best scores, ties to the larger string.
  std::sort(scored.begin(), scored.end(), std::greater<>());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) out.push_back(scored[i].second);
  return out;
}

std::vector<std::string> CheckClickArgv(const TrtllmFlagTable& table,
                                        const std::vector<std::string>& argv) {
  std::vector<std::string> not_modelled;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg == "--") break;  // click: the rest are arguments
    if (arg.size() < 2 || arg[0] != '-') continue;
    size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    // kvplan's own spelling of the MODEL argument (cli/launch_command.cc
    // EngineArgs rewrites a pasted `trtllm-serve MODEL` to `--model MODEL`).
    if (name == "--model") {
      if (eq == std::string::npos) ++i;
      continue;
    }
    const ClickOption* o = table.Find(name);
    // click tries a word that does not start with "--" as short options
    // ("-x" -> "No such option: -x"); serve declares none but --help.
    if (o == nullptr)
      ThrowNoSuchOption(table, arg.rfind("--", 0) == 0 ? name : arg.substr(0, 2),
                        arg.rfind("--", 0) == 0);
    if (o->treatment == "not_modelled") not_modelled.push_back(name);
    if (!o->takes_value) continue;
    if (eq != std::string::npos) {
      CheckClickChoice(table, *o, arg.substr(eq + 1));
    } else if (i + 1 < argv.size()) {
      CheckClickChoice(table, *o, argv[++i]);
    }
  }
  return not_modelled;
}

void CheckLlmApiKeys(const TrtllmFlagTable& table, const std::map<std::string, std::string>& yaml,
                     const std::string& args_class, const std::string& origin) {
  // llm_args.py update_llm_args_with_extra_dict builds KvCacheConfig(**...)
  // from the YAML's kv_cache_config before the LLM args are validated.
  std::vector<std::string> kv_errors, top_errors;
  std::map<std::string, std::vector<std::string>> unknown_parents;  // field -> children
  const std::string kv = "kv_cache_config.";
  for (const auto& [key, value] : yaml) {
    size_t dot = key.find('.');
    const std::string top = key.substr(0, dot);
    if (key.rfind(kv, 0) == 0 && !HasField(table, "KvCacheConfig", key.substr(kv.size()))) {
      auto [repr, type] = PythonScalar(value);
      kv_errors.push_back(ExtraForbidden(key.substr(kv.size()), repr, type));
    }
    if (HasField(table, args_class, top)) continue;
    if (dot == std::string::npos) {
      auto [repr, type] = PythonScalar(value);
      top_errors.push_back(ExtraForbidden(top, repr, type));
    } else {
      auto [repr, type] = PythonScalar(value);
      unknown_parents[top].push_back(fmt::format("{}: {}", PyRepr(key.substr(dot + 1)), repr));
    }
  }
  if (!kv_errors.empty()) ThrowExtraForbidden(origin, "KvCacheConfig", kv_errors);
  for (const auto& [field, children] : unknown_parents) {
    top_errors.push_back(
        ExtraForbidden(field, fmt::format("{{{}}}", fmt::join(children, ", ")), "dict"));
  }
  if (!top_errors.empty()) ThrowExtraForbidden(origin, args_class, top_errors);
}

std::string TrtllmFlagToWrite(std::string_view flag) {
  return FlagToWrite("trtllm", nullptr, flag);
}

}  // namespace kvplan
