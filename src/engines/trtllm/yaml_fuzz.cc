// libFuzzer target: any bytes as a trtllm-serve options YAML give the keys or
// an InputError; nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engines/trtllm/yaml.h"
#include "kvplan/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    kvplan::ParseSimpleYaml(text, "fuzz");
  } catch (const kvplan::InputError&) {
  }
  return 0;
}
