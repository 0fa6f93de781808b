// The JSON header of a .safetensors file: {"name": {"dtype", "shape",
// "data_offsets": [begin, end]}, ..., "__metadata__": {...}}.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

namespace kvplan {

// Sum of end - begin over the header's tensors, read as a stream (no
// document is built: memory stays the header's own size). InputError naming
// `where` when the header is not that shape or the sum overflows.
int64_t SumTensorBytes(std::string_view header, const std::string& where);
// The same, read from a stream (a file's header, chunk by chunk).
int64_t SumTensorBytes(std::istream& header, const std::string& where);

}  // namespace kvplan
