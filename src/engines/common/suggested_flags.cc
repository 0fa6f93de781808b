#include "engines/common/suggested_flags.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace kvplan {
namespace {

// Data: what the fixes (engines/*/fixes.cc, explain/vllm_failure.cc) and tune's commands
// (tune/tune.cc LaunchFlags, which sizing also simulates) write, by engine.
const std::map<std::string_view, std::vector<std::string_view>>& Suggested() {
  static const std::map<std::string_view, std::vector<std::string_view>> kSuggested = {
      {"sglang",
       {"--model-path", "--tp-size", "--dp-size", "--pp-size", "--ep-size", "--enable-dp-attention",
        "--context-length", "--mem-fraction-static", "--cuda-graph-max-bs", "--kv-cache-dtype",
        "--chunked-prefill-size", "--attention-backend", "--speculative-algorithm",
        "--speculative-draft-model-path", "--speculative-num-steps", "--speculative-eagle-topk",
        "--speculative-num-draft-tokens"}},
      {"vllm",
       {"--gpu-memory-utilization", "--max-model-len", "--kv-cache-dtype", "--tensor-parallel-size",
        "--pipeline-parallel-size"}},
      {"trtllm",
       {"--tp_size", "--pp_size", "--kv_cache_free_gpu_memory_fraction", "--max_seq_len"}},
  };
  return kSuggested;
}

// The table's flag registered under exactly `name` (no abbreviation), or nullptr.
const EngineFlag* ExactFlag(const FlagTable& table, std::string_view name) {
  for (const EngineFlag& f : table.flags) {
    if (std::find(f.names.begin(), f.names.end(), name) != f.names.end()) return &f;
  }
  return nullptr;
}

}  // namespace

const std::vector<std::string_view>& SuggestedFlags(std::string_view engine) {
  static const std::vector<std::string_view> kNone;
  auto it = Suggested().find(engine);
  return it == Suggested().end() ? kNone : it->second;
}

std::string FlagToWrite(std::string_view engine, const FlagTable* table, std::string_view flag) {
  const auto& listed = SuggestedFlags(engine);
  if (std::find(listed.begin(), listed.end(), flag) == listed.end()) {
    throw std::logic_error(fmt::format(
        "{} is not among kvplan's suggested {} flags (suggested_flags.cc)", flag, engine));
  }
  std::string name(flag);
  // A replacement may be deprecated in its turn; a table's chain is short, a cycle is not
  // followed past the table's size.
  for (size_t hops = 0; table != nullptr && hops < table->flags.size(); ++hops) {
    const EngineFlag* f = ExactFlag(*table, name);
    if (f == nullptr || f->deprecated.empty() || ExactFlag(*table, f->new_flag) == nullptr) break;
    name = f->new_flag;
  }
  return name;
}

}  // namespace kvplan
