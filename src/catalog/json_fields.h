// Typed reads of config.json fields that turn a wrong type into an InputError
// naming the file and the key (never a crash, never a silent default).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kvplan::config_json {

using Json = nlohmann::json;

// The integer at `key`; nullopt when the key is absent or null. Integral
// floats (128.0) are accepted; anything else throws InputError.
std::optional<int64_t> OptInt(const Json& obj, const char* key, const std::string& origin);

// Like OptInt, but the key must be present and > 0.
int64_t RequirePositive(const Json& obj, const char* key, const std::string& origin);

std::optional<bool> OptBool(const Json& obj, const char* key, const std::string& origin);
std::optional<std::string> OptString(const Json& obj, const char* key, const std::string& origin);

// The object at `key`, or nullptr when absent or null; throws when not an object.
const Json* OptObject(const Json& obj, const char* key, const std::string& origin);

// A list of integers at `key` (empty when absent or null).
std::vector<int64_t> IntList(const Json& obj, const char* key, const std::string& origin);

// A list of strings at `key` (empty when absent or null).
std::vector<std::string> StringList(const Json& obj, const char* key, const std::string& origin);

}  // namespace kvplan::config_json
