// Errors that reach the user. An InputError is bad input (a missing file, an
// unknown model, an impossible flag): the CLI prints its message on one line
// and exits with status 2. Anything else escaping is a bug in kvplan.
#pragma once

#include <stdexcept>
#include <string>

namespace kvplan {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

inline constexpr int kExitBadInput = 2;

}  // namespace kvplan
