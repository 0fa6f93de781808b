// For tests: the one-line message of the InputError a call throws, so a test
// asserts on kvplan's words for bad input (each test file used to carry its own
// copy of this try/catch).
#pragma once

#include <string>
#include <utility>

#include "kvplan/error.h"

namespace kvplan::testing {

// What the InputError thrown by `call` says; "" when `call` returns normally,
// so an expectation on the refusal's text fails for an accepted input. Any
// other exception escapes and fails the test (it is a bug, not bad input).
template <typename Call>
std::string InputErrorOf(Call&& call) {
  try {
    std::forward<Call>(call)();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace kvplan::testing
