// A small reader for the YAML subset of trtllm-serve --extra_llm_api_options
// files: `key: value` lines and one level of nested mappings, with comments.
// Anything else (lists, deeper nesting, flow collections, anchors, multi-line
// strings) is rejected with an InputError naming the line, rather than guessed.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace kvplan {

// Returns "key" -> value and "parent.child" -> value; a mapping key with no
// value of its own appears only through its children. `origin` names the file.
std::map<std::string, std::string> ParseSimpleYaml(std::string_view text,
                                                   const std::string& origin);

}  // namespace kvplan
