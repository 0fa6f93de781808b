// The engine flags kvplan itself writes: a plan's and explain's fixes, tune's launch command and
// the flags tune's sizing hands the simulator. Each is named here as kvplan has always written it;
// the release's own table decides how that release spells it, so no suggestion names a flag the
// release lacks or warns about (issue 11).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engines/common/flag_table.h"

namespace kvplan {

// Every flag kvplan may suggest for `engine` ("sglang", "vllm", "trtllm"); empty for another.
const std::vector<std::string_view>& SuggestedFlags(std::string_view engine);

// How the release of `table` spells `flag`: the flag its warning names instead when the table
// marks it deprecated (SGLang 0.5.14's --cuda-graph-max-bs: --cuda-graph-max-bs-decode), else
// `flag` itself (also with no table). A replacement that is not a plain flag of the table
// ("--cuda-graph-backend-prefill=disabled") is not followed. Throws std::logic_error for a flag
// not in SuggestedFlags(engine): a new suggestion is listed there, and so tested.
std::string FlagToWrite(std::string_view engine, const FlagTable* table, std::string_view flag);

}  // namespace kvplan
