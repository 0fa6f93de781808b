// trtllm-serve's whole parser at one release, as data/flags/trtllm/RELEASE.json
// (scripts/extract-trtllm-flags.py): the click options of `trtllm-serve serve`
// and the keys the LLM API's pydantic models accept in --extra_llm_api_options.
// With a table for the release, a flag trtllm-serve lacks is refused in click's
// words and a YAML key the LLM API forbids in pydantic's.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

struct ClickOption {
  std::vector<std::string> names;
  bool takes_value = true;           // false for is_flag
  std::string treatment;             // "modelled", "no_memory_effect", "not_modelled"
  std::vector<std::string> choices;  // empty: not checked
  std::map<std::string, std::string> choice_alias;  // ChoiceWithAlias ("trt" -> "tensorrt")
};

struct TrtllmFlagTable {
  std::string release, prog;
  std::vector<ClickOption> options;
  // Pydantic model ("TorchLlmArgs", "TrtLlmArgs", "KvCacheConfig") -> its fields.
  std::map<std::string, std::vector<std::string>> yaml_fields;

  const ClickOption* Find(const std::string& name) const;  // exact: click has no abbreviations
};

// The table for exactly `release`, or nullptr when data/flags/trtllm/ has none.
const TrtllmFlagTable* TrtllmFlagTableFor(const std::string& release);

// How trtllm-serve spells `flag`, one of kvplan's suggested flags
// (engines/common/suggested_flags.h). The click tables record no deprecated option, so it is
// `flag` itself, kept in the one list the suggestion test walks.
std::string TrtllmFlagToWrite(std::string_view flag);

// Checks `argv` (the words after `trtllm-serve [serve]`) as click parses them:
// an unknown option throws InputError with click's "Error: No such option"
// and difflib's suggestions; a value outside a Choice throws click's "Invalid
// value". Returns the options given that kvplan does not model.
std::vector<std::string> CheckClickArgv(const TrtllmFlagTable& table,
                                        const std::vector<std::string>& argv);

// Checks the YAML keys ("key" and "parent.child", as ParseSimpleYaml gives
// them) against the pydantic models: kv_cache_config's children against
// KvCacheConfig, then the top-level keys against `args_class`; throws
// InputError with pydantic's "validation error ... Extra inputs are not
// permitted" for the first model that has any.
void CheckLlmApiKeys(const TrtllmFlagTable& table, const std::map<std::string, std::string>& yaml,
                     const std::string& args_class, const std::string& origin);

// difflib.get_close_matches(word, possibilities) with its defaults (n=3,
// cutoff=0.6), best first, as click uses it for "Did you mean".
std::vector<std::string> CloseMatches(const std::string& word,
                                      const std::vector<std::string>& possibilities);

}  // namespace kvplan
