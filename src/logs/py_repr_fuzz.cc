// libFuzzer target: the Python repr parser on arbitrary bytes must never crash,
// hang or recurse without bound; whatever it returns must be self-consistent.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "logs/py_repr.h"

namespace {

void Walk(const kvplan::PyValue& v, int depth) {
  if (depth > 200) std::abort();  // the parser promised to stop at max_depth
  if (v.kind == kvplan::PyValue::Kind::kDict && v.keys.size() != v.items.size()) std::abort();
  if (v.kw_names.size() != v.kw_values.size()) std::abort();
  for (const kvplan::PyValue& c : v.items) Walk(c, depth + 1);
  for (const kvplan::PyValue& c : v.keys) Walk(c, depth + 1);
  for (const kvplan::PyValue& c : v.kw_values) Walk(c, depth + 1);
  (void)v.Display();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  kvplan::PyParse p = kvplan::ParsePyRepr(text);
  if (p.complete != p.problem.empty()) std::abort();
  Walk(p.value, 0);
  return 0;
}
