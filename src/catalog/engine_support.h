// The first release of an engine that serves an architecture, where kvplan's
// modelled releases include older ones that do not (a plan for those would
// describe a launch that fails with "model architecture not supported"). Data:
// engine_support.cc cites the pull request or model file of each row.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

// ServingRelease::major of an architecture no release of the engine serves: every
// release compares below it.
constexpr int kNoServingRelease = 9999;

struct ServingRelease {
  int major = 0, minor = 0, patch = 0, post = 0;
  std::string_view text;    // "0.19.0"
  std::string_view source;  // the pull request / model file that added the model
};

// nullopt when kvplan knows no lower bound for `architecture` under `engine`
// ("sglang", "vllm").
std::optional<ServingRelease> FirstServingRelease(std::string_view architecture,
                                                  std::string_view engine);

// How engine_support.cc bounds an architecture under an engine: a first serving release (a
// row that FirstServingRelease returns), served by every release kvplan models (vLLM 0.6.0 and
// later, SGLang 0.4.6 and later), or not gated, with the reason.
struct ServingBound {
  enum class Kind { kFirstRelease, kEveryModelledRelease, kNotGated };
  Kind kind = Kind::kFirstRelease;
  std::string_view source;  // the row's citation or reason
};

// nullopt when the tables say nothing of `architecture` under `engine`.
std::optional<ServingBound> ServingBoundOf(std::string_view architecture, std::string_view engine);

// Every (architecture, engine) the tables name, in table order (duplicates included).
struct ServingBoundRow {
  std::string_view architecture;
  std::string_view engine;
  ServingBound::Kind kind;
};
std::vector<ServingBoundRow> ServingBoundRows();

// What such a launch stops with: the model registry's error (SGLang's models/registry.py
// and vLLM's model_executor/models/registry.py share _raise_for_unsupported's text), then
// kvplan's note naming the release that added the model. `engine` as people write it.
std::string UnservedArchitectureError(std::string_view engine, std::string_view release,
                                      std::string_view architecture, const ServingRelease& first);

}  // namespace kvplan
