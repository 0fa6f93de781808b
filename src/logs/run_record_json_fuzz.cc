// libFuzzer target: the run history's record decoder (what `kvplan runs` and
// `diff --last-good` read back from the store) on arbitrary JSON text. A row
// of a damaged or foreign store must give InputError, never a crash, an
// overflowing conversion or an exception of another type; a record it accepts
// must survive a second encode/decode unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include "kvplan/error.h"
#include "logs/run_record_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return 0;
  kvplan::RunRecord record;
  try {
    record = kvplan::RunRecordFromJson(j);
  } catch (const kvplan::InputError&) {
    return 0;
  }
  const std::string once = kvplan::DumpJson(kvplan::ToJson(record));
  const std::string twice = kvplan::DumpJson(
      kvplan::ToJson(kvplan::RunRecordFromJson(nlohmann::json::parse(once, nullptr, false))));
  if (once != twice) std::abort();
  return 0;
}
