// libFuzzer target: any bytes as a pasted launch command (shell words, then
// the engine's entry point and flags) parse or raise InputError.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/launch_command.h"
#include "cli/shell_words.h"
#include "kvplan/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    std::vector<std::string> words;
    for (const kvplan::cli::ShellToken& t : kvplan::cli::TokenizeShell(text))
      words.push_back(t.text);
    kvplan::cli::ParseLaunchCommand(words);
  } catch (const kvplan::InputError&) {
  }
  return 0;
}
