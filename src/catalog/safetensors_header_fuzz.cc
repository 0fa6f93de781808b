// libFuzzer target: any bytes as a safetensors JSON header give a sum or an
// InputError (streamed parse, checked sums); nothing else may escape.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/safetensors_header.h"
#include "kvplan/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    kvplan::SumTensorBytes(text, "fuzz");
  } catch (const kvplan::InputError&) {
  }
  return 0;
}
