// PLACEHOLDER until the launch-command parser lands: handles pre-split words only.
#include "cli/launch_command.h"

#include "util/error.h"

namespace kvplan::cli {

LaunchCommand ParseLaunchCommand(const std::vector<std::string>& words) {
  LaunchCommand c;
  size_t i = 0;
  if (words.size() >= 3 && words[1] == "-m" && words[2] == "sglang.launch_server") {
    c.engine = "sglang";
    i = 3;
  } else {
    throw InputError("unrecognised launch command");
  }
  c.args.assign(words.begin() + static_cast<std::ptrdiff_t>(i), words.end());
  return c;
}

}  // namespace kvplan::cli
