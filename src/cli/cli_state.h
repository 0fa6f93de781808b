// What main() splits off kvplan's command line before CLI11 sees it: the
// words after a standalone `--` (a pasted engine launch command).
#pragma once

#include <string>
#include <vector>

namespace kvplan::cli {

std::vector<std::string>& LaunchTail();

}  // namespace kvplan::cli
