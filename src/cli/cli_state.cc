#include "cli/cli_state.h"

namespace kvplan::cli {

std::vector<std::string>& LaunchTail() {
  static std::vector<std::string> tail;
  return tail;
}

}  // namespace kvplan::cli
