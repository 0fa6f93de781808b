// The first release of an engine that serves an architecture, where kvplan's
// modelled releases include older ones that do not (a plan for those would
// describe a launch that fails with "model architecture not supported"). Data:
// engine_support.cc cites the pull request or model file of each row.
#pragma once

#include <optional>
#include <string_view>

namespace kvplan {

struct ServingRelease {
  int major = 0, minor = 0, patch = 0, post = 0;
  std::string_view text;    // "0.19.0"
  std::string_view source;  // the pull request / model file that added the model
};

// nullopt when kvplan knows no lower bound for `architecture` under `engine`
// ("sglang", "vllm").
std::optional<ServingRelease> FirstServingRelease(std::string_view architecture,
                                                  std::string_view engine);

}  // namespace kvplan
