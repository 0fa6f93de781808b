// An engine's whole argument parser at one release, as extracted from the
// engine's source by scripts/extract-flags.py into data/flags/ENGINE/RELEASE.json.
// It tells kvplan which flags the engine itself would accept, so a flag the
// engine refuses is refused here with argparse's words.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

struct EngineFlag {
  enum class Kind { kValue, kFlag, kBool };  // kBool: BooleanOptionalAction (--x / --no-x)
  std::vector<std::string> names;
  Kind kind = Kind::kValue;
  std::string nargs;                 // "" (one value), "?", "+", "*" or a count
  std::vector<std::string> choices;  // empty: any value
  // The class of an SGLang Deprecated*Action that registers it ("" when current), and the flag
  // its warning names instead ("" when none, or a flag=value such as
  // "--cuda-graph-backend-prefill=disabled").
  std::string deprecated, new_flag;
};

struct FlagTable {
  std::string engine, release, prog;
  bool allow_abbrev = true;
  std::vector<EngineFlag> flags;
  // The environment variables the engine defines at the release (vLLM: vllm/envs.py's
  // environment_variables); empty when the table does not record them.
  std::vector<std::string> environment;

  // The flag that `name` selects under argparse's rules: an exact name, or
  // (allow_abbrev) the one long option it is a prefix of. nullptr when none;
  // throws InputError with argparse's "ambiguous option" when several match.
  const EngineFlag* Resolve(std::string_view name) const;
};

// The parser of `engine` ("sglang", "vllm") at exactly `release` ("0.5.6"),
// or nullptr when data/flags/ has none for that release.
const FlagTable* FindFlagTable(std::string_view engine, std::string_view release);

// The releases data/flags/ holds for `engine`, oldest first.
std::vector<std::string> FlagTableReleases(std::string_view engine);

// For a release with no table of its own: the table of the newest release at or before it, as
// `key_of` orders release names (nullopt: not a release name), or nullptr when every table is
// newer. Its flags are a subset of the release's, give or take a removed one.
const FlagTable* NearestOlderFlagTable(
    std::string_view engine, int64_t release_key,
    const std::function<std::optional<int64_t>(const std::string&)>& key_of);

// The one line a plan at `release` gives when its flags are checked against `table`, an older
// release's parser: which table, and that flags added since are unknown to kvplan.
std::string OlderFlagTableNote(const std::string& engine_name, const std::string& release,
                               const FlagTable& table);

// argparse's messages, as the engine prints them (Python 3.12 argparse).
std::string UnrecognizedArgumentsError(const std::string& prog,
                                       const std::vector<std::string>& words);
std::string InvalidChoiceError(const EngineFlag& flag, const std::string& value);

// Python's repr() of a str, as argparse (and click, and pydantic) quote a value.
std::string PyRepr(const std::string& s);

}  // namespace kvplan
