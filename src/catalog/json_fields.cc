#include "catalog/json_fields.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "kvplan/error.h"

namespace kvplan::config_json {
namespace {

[[noreturn]] void WrongType(const std::string& origin, const char* key, const char* expected,
                            const Json& value) {
  throw InputError(origin + ": config key \"" + key + "\" should be " + expected + ", got " +
                   value.type_name());
}

const Json* Find(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

}  // namespace

std::optional<int64_t> OptInt(const Json& obj, const char* key, const std::string& origin) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return std::nullopt;
  if (v->is_number_integer()) return v->get<int64_t>();
  if (v->is_number_float()) {
    double d = v->get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15) {
      return static_cast<int64_t>(d);
    }
  }
  WrongType(origin, key, "an integer", *v);
}

int64_t RequirePositive(const Json& obj, const char* key, const std::string& origin) {
  std::optional<int64_t> v = OptInt(obj, key, origin);
  if (!v) throw InputError(origin + ": config.json is missing the required key \"" + key + "\"");
  if (*v <= 0) {
    throw InputError(origin + ": config key \"" + key + "\" must be > 0, got " +
                     std::to_string(*v));
  }
  return *v;
}

std::optional<bool> OptBool(const Json& obj, const char* key, const std::string& origin) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_boolean()) WrongType(origin, key, "true or false", *v);
  return v->get<bool>();
}

std::optional<std::string> OptString(const Json& obj, const char* key, const std::string& origin) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) WrongType(origin, key, "a string", *v);
  return v->get<std::string>();
}

const Json* OptObject(const Json& obj, const char* key, const std::string& origin) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return nullptr;
  if (!v->is_object()) WrongType(origin, key, "an object", *v);
  return v;
}

std::vector<int64_t> IntList(const Json& obj, const char* key, const std::string& origin) {
  std::vector<int64_t> out;
  const Json* v = Find(obj, key);
  if (v == nullptr) return out;
  if (!v->is_array()) WrongType(origin, key, "a list of integers", *v);
  for (const Json& e : *v) {
    if (!e.is_number_integer()) WrongType(origin, key, "a list of integers", *v);
    out.push_back(e.get<int64_t>());
  }
  return out;
}

std::vector<std::string> StringList(const Json& obj, const char* key, const std::string& origin) {
  std::vector<std::string> out;
  const Json* v = Find(obj, key);
  if (v == nullptr) return out;
  if (!v->is_array()) WrongType(origin, key, "a list of strings", *v);
  for (const Json& e : *v) {
    if (!e.is_string()) WrongType(origin, key, "a list of strings", *v);
    out.push_back(e.get<std::string>());
  }
  return out;
}

}  // namespace kvplan::config_json
