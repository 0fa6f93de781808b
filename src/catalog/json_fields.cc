#include "catalog/json_fields.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"

namespace kvplan::config_json {
namespace {

// What was found, for the message: a number or a string is quoted (cut and
// escaped), anything else named by its JSON type.
std::string Found(const Json& value) {
  if (value.is_number()) return EscapeForError(value.dump(), 40);
  if (value.is_string()) return "string " + QuoteForError(value.get<std::string>(), 40);
  return value.type_name();
}

[[noreturn]] void WrongType(const std::string& origin, const char* key, const char* expected,
                            const Json& value) {
  throw InputError(origin + ": config key \"" + key + "\" should be " + expected + ", got " +
                   Found(value));
}

const Json* Find(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

// Upper bounds that keep every byte product in int64 (experts x 3 x hidden x
// moe_intermediate x layers x 2 < 2^63) while staying far above real models.
int64_t MaxConfigInt(std::string_view key) {
  constexpr std::pair<std::string_view, int64_t> kMax[] = {
      {"hidden_size", int64_t{1} << 16},
      {"target_hidden_size", int64_t{1} << 16},
      {"vision_config.hidden_size", int64_t{1} << 16},
      {"num_hidden_layers", int64_t{1} << 11},
      {"num_experts", int64_t{1} << 14},
      {"moe_intermediate_size", int64_t{1} << 18},
      {"sliding_window", int64_t{1} << 30},
      {"vocab_size", int64_t{1} << 26},
      {"vocab_size_per_layer_input", int64_t{1} << 26},
      // LFM2's short-convolution window (transformers Lfm2Config; real configs: 3).
      {"conv_L_cache", 1024},
      // The default context: bounded as a --context-length is (a 2^40 one got
      // "Verdict: OK" with an 8 PB request pool).
      {"max_position_embeddings", kMaxInputCount},
  };
  for (const auto& [k, max] : kMax) {
    if (k == key) return max;
  }
  return int64_t{1} << 20;
}

}  // namespace

std::optional<int64_t> OptInt(const Json& obj, const char* key, const std::string& origin) {
  const Json* v = Find(obj, key);
  if (v == nullptr) return std::nullopt;
  // nlohmann keeps 2^63 .. 2^64-1 as unsigned: read as int64 it would wrap
  // to a negative figure.
  if (v->is_number_unsigned() && v->get<uint64_t>() > uint64_t{INT64_MAX}) {
    WrongType(origin, key, "an integer of at most 9223372036854775807", *v);
  }
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
    if (!e.is_number_integer() ||
        (e.is_number_unsigned() && e.get<uint64_t>() > uint64_t{INT64_MAX})) {
      WrongType(origin, key, "a list of integers", e);
    }
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

int BoundedInt(int64_t v, std::string_view key, const std::string& origin, int64_t min) {
  const int64_t max = MaxConfigInt(key);
  if (v < min || v > max) {
    throw InputError(origin + ": config key \"" + std::string(key) +
                     "\" is out of range: " + std::to_string(v) + " (expected " +
                     std::to_string(min) + " to " + std::to_string(max) + ")");
  }
  return static_cast<int>(v);
}

int OptBoundedInt(const Json& obj, const char* key, const std::string& origin, int fallback) {
  const std::optional<int64_t> v = OptInt(obj, key, origin);
  return v ? BoundedInt(*v, key, origin) : fallback;
}

int RequireBoundedInt(const Json& obj, const char* key, const std::string& origin) {
  return BoundedInt(RequirePositive(obj, key, origin), key, origin);
}

}  // namespace kvplan::config_json
