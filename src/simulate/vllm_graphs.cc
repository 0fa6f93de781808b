#include "simulate/vllm_graphs.h"

#include <charconv>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

int64_t GraphSize(std::string_view flag, std::string_view text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 1 || v > kMaxInputCount) {
    throw InputError(fmt::format("{} takes whole numbers from 1 to {}, got {}", flag,
                                 kMaxInputCount, QuoteForError(std::string(text))));
  }
  return v;
}

// The values after `flag` (argparse nargs="+": up to the next option; "=" form:
// one word), each word split at commas. nullopt: the flag is not given.
std::optional<std::vector<int64_t>> ListFlag(const std::vector<std::string>& args,
                                             std::string_view flag) {
  std::optional<std::vector<int64_t>> out;
  auto add = [&](std::string_view word) {
    size_t start = 0;
    for (;;) {
      const size_t comma = word.find(',', start);
      const std::string_view part = word.substr(start, comma - start);
      if (!part.empty()) out->push_back(GraphSize(flag, part));
      if (comma == std::string_view::npos) return;
      start = comma + 1;
    }
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a.starts_with(std::string(flag) + "=")) {
      out.emplace();
      add(a.substr(flag.size() + 1));
    } else if (a == flag) {
      out.emplace();
      for (size_t j = i + 1; j < args.size() && !args[j].starts_with("-"); ++j) add(args[j]);
    }
  }
  return out;
}

// config/compilation.py CompilationConfig (v0.11+): cudagraph_capture_sizes, and
// max_cudagraph_capture_size (v0.12+).
void ReadCompilationConfig(const std::vector<std::string>& args, VllmGraphSizing* g) {
  std::optional<std::string> text;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--compilation-config" && i + 1 < args.size()) text = args[i + 1];
    if (args[i].starts_with("--compilation-config=")) text = args[i].substr(21);
  }
  if (!text) return;
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  // vllm/engine/arg_utils.py: a bare number is the optimization level (-O3), not a config.
  if (j.is_number_integer()) return;
  if (j.is_discarded() || !j.is_object()) {
    throw InputError(
        fmt::format("--compilation-config {}: expected a JSON object", QuoteForError(*text)));
  }
  auto size = [](const nlohmann::json& v) {
    if (!v.is_number_integer()) {
      throw InputError("--compilation-config: cudagraph sizes must be whole numbers");
    }
    return GraphSize("--compilation-config", std::to_string(v.get<int64_t>()));
  };
  if (const auto it = j.find("cudagraph_capture_sizes"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) {
      throw InputError("--compilation-config: cudagraph_capture_sizes must be a list");
    }
    g->sizes.clear();
    for (const nlohmann::json& v : *it) g->sizes.push_back(size(v));
  }
  if (const auto it = j.find("max_cudagraph_capture_size"); it != j.end() && !it->is_null()) {
    g->max_size = size(*it);
  }
  // config/compilation.py CUDAGraphMode (v0.11+): NONE captures no graph
  if (const auto it = j.find("cudagraph_mode"); it != j.end() && it->is_string()) {
    if (it->get<std::string>() == "NONE") g->enforce_eager = true;
  }
}

}  // namespace

VllmGraphSizing VllmGraphSizingOf(const std::vector<std::string>& args, int64_t max_num_seqs,
                                  int64_t max_num_batched_tokens, bool enforce_eager) {
  VllmGraphSizing g;
  g.max_num_seqs = max_num_seqs;
  g.max_num_batched_tokens = max_num_batched_tokens;
  g.enforce_eager = enforce_eager;
  ReadCompilationConfig(args, &g);
  // config/scheduler.py cuda_graph_sizes (v0.10-v0.11): one value is the largest size of
  // the pattern, more are the list
  if (const auto old = ListFlag(args, "--cuda-graph-sizes")) {
    if (old->size() == 1) {
      g.max_size = old->front();
    } else {
      g.sizes = *old;
    }
  }
  if (const auto sizes = ListFlag(args, "--cudagraph-capture-sizes")) g.sizes = *sizes;
  if (const auto max = ListFlag(args, "--max-cudagraph-capture-size")) {
    if (max->size() != 1) {
      throw InputError("--max-cudagraph-capture-size takes one whole number");
    }
    g.max_size = max->front();
  }
  return g;
}

}  // namespace kvplan
