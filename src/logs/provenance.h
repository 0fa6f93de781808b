// Where each effective setting came from: the user or the engine.
//
// The rule kvplan applies, strongest evidence first:
//  1. The launch command line, when the log holds it (a pasted "$ python -m
//     sglang.launch_server ..." or "vllm serve ..."): a flag on it is "user";
//     a setting without its flag is "auto" (the engine chose it).
//  2. vLLM's "non-default args: {...}" line: listed keys are "user"; the others
//     "auto".
//  3. For SGLang's mem_fraction_static without a command line: the printed value
//     is compared with the engine's default rule for the run's GPU (see
//     MarkDefaultRuleMatch): equal -> "auto (matches the default rule)",
//     different -> "user (differs from the default rule)".
//  4. Otherwise "unknown": server_args prints resolved values whether or not
//     the user passed them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "logs/run_record.h"

namespace kvplan {

void AssignProvenance(RunRecord* run);
// The provenance of the printed settings only (AssignProvenance without the layout
// derived from rank tags).
void AssignPrintedProvenance(RunRecord* run);

// Rule 3: `default_value` is what the engine's default rule gives for this
// run (from the SGLang planner); only settings still "unknown" change.
void MarkDefaultRuleMatch(RunRecord* run, std::string_view key, double default_value,
                          std::string_view rule_name);

// The flags on a command line: "--tp 8 --mem-fraction-static=0.5" -> {"--tp",
// "--mem-fraction-static"}.
std::vector<std::string> CommandFlags(std::string_view command);

// The command-line spellings of an engine setting ("tp_size" -> "--tp-size", "--tp", ...).
std::vector<std::string> FlagSpellings(std::string_view engine, std::string_view key);

}  // namespace kvplan
