// Typed reads of config.json fields that turn a wrong type into an InputError
// naming the file and the key (never a crash, never a silent default).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kvplan::config_json {

using Json = nlohmann::json;

// The integer at `key`; nullopt when the key is absent or null. Integral
// floats (128.0) are accepted; anything else throws InputError.
std::optional<int64_t> OptInt(const Json& obj, const char* key, const std::string& origin);

// Like OptInt, but the key must be present and > 0.
int64_t RequirePositive(const Json& obj, const char* key, const std::string& origin);

// The bounded reader of config integers that become a model's dimensions and counts: each key
// has one upper bound (a table in json_fields.cc that keeps every byte product in int64, far
// above real models; 2^20 for keys it does not name), and one error line names the key and the
// range: "<origin>: config key "<key>" is out of range: <v> (expected 0 to <max>)" (InputError,
// exit code 2). `key` may be a dotted name for a nested field ("vision_config.hidden_size").
//
// `v`, already read from config key `key`, as an int within min..max; `min` is above 0 only
// where a reader's rule needs it (a vision tower's dimensions are at least 1, LFM2's conv
// window 2).
int BoundedInt(int64_t v, std::string_view key, const std::string& origin, int64_t min = 0);
// The integer at `key` within 0..max; `fallback` (not checked) when absent or null.
int OptBoundedInt(const Json& obj, const char* key, const std::string& origin, int fallback);
// The integer at `key`: present and > 0 (RequirePositive's errors), and at most max.
int RequireBoundedInt(const Json& obj, const char* key, const std::string& origin);

std::optional<bool> OptBool(const Json& obj, const char* key, const std::string& origin);
std::optional<std::string> OptString(const Json& obj, const char* key, const std::string& origin);

// The object at `key`, or nullptr when absent or null; throws when not an object.
const Json* OptObject(const Json& obj, const char* key, const std::string& origin);

// A list of integers at `key` (empty when absent or null).
std::vector<int64_t> IntList(const Json& obj, const char* key, const std::string& origin);

// A list of strings at `key` (empty when absent or null).
std::vector<std::string> StringList(const Json& obj, const char* key, const std::string& origin);

}  // namespace kvplan::config_json
