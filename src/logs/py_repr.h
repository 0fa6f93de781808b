// A small recursive-descent parser for Python reprs as the engines log them:
// SGLang's `server_args=ServerArgs(model_path='...', tp_size=8, ...)` (a
// dataclass repr with nested dataclasses, lists, dicts, None/True/False,
// quoted strings with escapes) and vLLM's `non-default args: {...}` dict.
// Logs are often cut or trimmed by hand ("[...]"), so keyword lists recover:
// an unparsable argument is skipped to the next comma, and an input that
// ends early yields what was read so far, marked incomplete.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

struct PyValue {
  enum class Kind {
    kNone,
    kBool,
    kInt,
    kFloat,
    kStr,
    kList,
    kTuple,
    kSet,
    kDict,
    kCall,      // Name(args..., key=value...): dataclasses, torch.device(...)
    kName,      // a bare (dotted) name: torch.bfloat16
    kEllipsis,  // ... (also what "[...]" trims to)
    kOpaque,    // <LoadFormat.AUTO: 'auto'>, <function f at 0x7f>
  };
  Kind kind = Kind::kNone;
  bool boolean = false;
  int64_t integer = 0;
  double number = 0;                  // kFloat; also kInt (as a double)
  std::string text;                   // kStr: decoded; kName/kCall: the name; kOpaque: as printed
  std::string source;                 // the value exactly as printed
  std::vector<PyValue> items;         // list/tuple/set elements, dict values, positional call args
  std::vector<PyValue> keys;          // dict keys (parallel to items)
  std::vector<std::string> kw_names;  // call keyword names
  std::vector<PyValue> kw_values;     // parallel to kw_names

  // How kvplan shows the value: strings without quotes, everything else as printed.
  std::string Display() const;
  // The value of keyword `name` of a call, or nullptr.
  const PyValue* Kwarg(std::string_view name) const;
};

struct PyParse {
  PyValue value;
  bool complete = true;  // false: the text ended early or parts were skipped
  std::string problem;   // the first problem met, "" when none
};

// Parses one value at the start of `text`. Never throws; nesting deeper than
// `max_depth` is a problem, not a crash.
PyParse ParsePyRepr(std::string_view text, int max_depth = 64);

}  // namespace kvplan
