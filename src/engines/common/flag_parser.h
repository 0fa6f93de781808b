// A table-driven parser for an engine's own command-line flags, shared by the
// SGLang, vLLM and TensorRT-LLM planners. It follows argparse's grammar
// (`--flag value`, `--flag=value`, store-true flags, aliases) because that is
// what the engines use.
//
// With the engine's own parser at the release (UseEngineParser, from
// data/flags/), a flag the engine lacks is refused in argparse's words and
// abbreviations and `choices` are argparse's. Without one: flags that kvplan
// does not model (--host, --port, ...) are accepted; an unknown flag one or two
// edits away from a modelled one is an error ("did you mean"), since it is
// almost certainly a typo that would otherwise silently change the plan; other
// unknown flags are reported as warnings.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engines/common/flag_table.h"

namespace kvplan {

// The warning every engine's plan gives for a flag its parser accepted but
// kvplan does not model: ignored here, so whatever it changes is not shown.
std::string UnknownFlagWarning(const std::string& engine, const std::string& flag);

class FlagParser {
 public:
  // `engine` names the engine in messages ("SGLang").
  explicit FlagParser(std::string engine);

  // Each registration takes the flag's names ("--tp-size", "--tp") and where
  // to store the parsed value. Values are range-checked by the caller.
  void Int(std::vector<std::string> names, std::optional<int64_t>* out);
  void Double(std::vector<std::string> names, std::optional<double>* out);
  void String(std::vector<std::string> names, std::optional<std::string>* out);
  void Bool(std::vector<std::string> names, std::optional<bool>* out);  // store_true
  // A store_true flag that stores false ("--disable-x" for a field "x").
  void BoolFalse(std::vector<std::string> names, std::optional<bool>* out);
  // Flags accepted and ignored because they do not affect memory.
  void Ignored(std::vector<std::string> names, bool takes_value);
  // A positional argument (vLLM's `serve MODEL`); at most one.
  void Positional(std::string name, std::optional<std::string>* out);

  // Checks every flag against the engine's own parser at the release (see
  // flag_table.h): a flag it lacks is refused with argparse's "unrecognized
  // arguments", an abbreviation resolves as argparse resolves it, a value
  // outside `choices` is refused, and a flag it has that kvplan does not
  // model is skipped with its values and warned about. `underscores` is
  // whether the engine reads --a_b as --a-b (vLLM's FlexibleArgumentParser).
  void UseEngineParser(const FlagTable* table, bool underscores);
  // The same with an older release's parser standing in for `release`, which has no table:
  // what the table refuses for a flag it lacks, or a value outside its choices, is only a
  // warning naming the table (warnings()), since `release` may have added it; a flag kvplan
  // models is read even where the table lacks it. Still refused, as no later parser changes
  // them: an ambiguous abbreviation (a later parser only has more names for it to match), a near
  // miss of a modelled flag (a typo), and `--a_b` where the table has `--a-b` and the engine
  // does not read one as the other.
  void UseOlderEngineParser(const FlagTable* table, bool underscores, std::string release);
  // A flag whose values kvplan checks with a rule other verbs share (so they
  // give one message): the engine table's `choices` are not applied to it.
  void KeepOwnChoiceCheck(std::string name) { own_choice_checks_.push_back(std::move(name)); }

  // Parses `argv`. Throws InputError on a bad value, a missing value, a flag
  // given twice with different values, or a likely typo of a known flag.
  void Parse(const std::vector<std::string>& argv);

  // Unknown flags that were skipped, for the plan's warnings.
  const std::vector<std::string>& unknown_flags() const { return unknown_; }
  // Under an older release's parser: the lines saying what it could not check.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // The flags the user gave, by their first registered name.
  const std::vector<std::string>& given() const { return given_; }

 private:
  enum class Kind { kValue, kBool };
  struct Spec {
    std::vector<std::string> names;
    Kind kind;
    std::function<void(const std::string& flag, const std::string& value)> set;
    bool ignored = false;
  };
  const Spec* Find(std::string_view name) const;
  std::optional<std::string> NearMiss(std::string_view name) const;
  // With an engine table: the spec `name` selects, or nullptr after skipping
  // (and warning about) a flag kvplan does not model; sets *skip_to.
  const Spec* FindByTable(const std::vector<std::string>& argv, size_t i, const std::string& name,
                          const std::optional<std::string>& value, size_t* skip_to);
  bool UnderscoreSpelling(const std::string& name) const;
  const Spec* FindNewerThanTable(const std::vector<std::string>& argv, size_t i,
                                 const std::string& name, const std::optional<std::string>& value,
                                 size_t* skip_to);
  const Spec* FindWithoutTable(const std::vector<std::string>& argv, size_t i,
                               const std::string& name, const std::optional<std::string>& value,
                               size_t* skip_to);
  void CheckChoice(const std::string& value);
  const Spec* ModelledSpec(const EngineFlag& ef, const std::string& lookup) const;
  void SplitAttachedShortValue(std::string* name, std::optional<std::string>* value) const;
  void Apply(const Spec& spec, const std::vector<std::string>& argv, size_t* i,
             const std::string& name, std::optional<std::string> value);

  std::string engine_;
  std::vector<Spec> specs_;
  std::optional<std::string>* positional_ = nullptr;
  std::string positional_name_;
  std::vector<std::string> unknown_;
  std::vector<std::string> given_;
  const FlagTable* table_ = nullptr;
  bool underscores_ = false;
  const EngineFlag* current_ = nullptr;  // the table's flag being parsed, for `choices`
  std::vector<std::string> unrecognized_;
  std::vector<std::string> own_choice_checks_;
  std::string newer_release_;  // the release an older table stands in for ("" for none)
  std::vector<std::string> warnings_;
};

// The environment a launch was given, as NAME=value words among the engine's
// flags (a pasted `VAR=1 python -m ...`, or plan's --env). Words whose NAME
// starts with `prefix` ("SGLANG_", "VLLM_") are moved from *argv to the result.
std::vector<std::pair<std::string, std::string>> TakeEnvironment(std::vector<std::string>* argv,
                                                                 const std::string& prefix);

// Python's envs.py convention for a switch: "1" or "true" (any case) is on.
bool EnvSwitchOn(const std::string& value);

// Edit distance between two short strings (for "did you mean").
int EditDistance(std::string_view a, std::string_view b);

}  // namespace kvplan
