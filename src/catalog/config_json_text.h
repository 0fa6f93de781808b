// Reading config.json text the way Python's json module does: besides strict
// JSON it accepts the bare tokens Infinity, -Infinity and NaN (json.loads
// does, and real configs carry them: NVIDIA Nemotron-H has
// "time_step_limit": [0.0, Infinity]). A refusal names the line, the column and
// what the parser expected there.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace kvplan {

// The JSON value of `text`; throws InputError naming `origin`, the line and
// column and the reason when it is not JSON (Python-flavoured).
nlohmann::json ParseConfigJsonText(std::string_view text, const std::string& origin);

}  // namespace kvplan
