#include "report/compare_words.h"

#include <algorithm>

#include <fmt/core.h>

#include "base/format.h"
#include "base/units.h"

namespace kvplan {
namespace {

double FigureOr(const PlanResult& r, const char* key, double fallback) {
  const Figure* f = r.FindFigure(key);
  return f ? f->value : fallback;
}

// How this engine arrived at its KV budget, with its own numbers.
std::string Why(const PlanResult& r) {
  if (r.engine == "sglang") {
    return fmt::format(
        "SGLang keeps {:.2f} of the {:.2f} GiB free before loading, minus what "
        "loading used, = {}",
        r.fraction, ToGiB(r.pre_load_free_bytes), FormatGiB(r.rest_memory_bytes));
  }
  if (r.engine == "vllm") {
    double graphs =
        r.era.find("CUDA-graph") != std::string::npos ? FigureOr(r, "cuda_graph_gib", 0) : 0;
    return fmt::format(
        "vLLM takes {:.2f} x {:.2f} GiB total minus weights {:.2f}, activation peak {:.2f} "
        "(sampler buffers included) and non-torch {:.2f}{} = {}",
        r.fraction, ToGiB(r.gpu_total_bytes), ToGiB(r.weights_bytes_per_gpu),
        FigureOr(r, "activation_peak_gib", 0), FigureOr(r, "non_torch_gib", 0),
        graphs > 0 ? fmt::format(" and CUDA graphs {:.2f}", graphs) : "",
        FormatGiB(r.rest_memory_bytes));
  }
  return fmt::format("TRT-LLM takes {:.2f} of the {:.2f} GiB free after loading = {}", r.fraction,
                     ToGiB(r.post_load_free_bytes), FormatGiB(r.rest_memory_bytes));
}

}  // namespace

double CompareConcurrency(const PlanResult& r) {
  if (r.context_length <= 0) return 0;
  return static_cast<double>(r.max_total_num_tokens) / static_cast<double>(r.context_length);
}

std::string CompareEngineName(const std::string& e) {
  if (e == "sglang") return "SGLang";
  if (e == "vllm") return "vLLM";
  return "TRT-LLM";
}

// How the engine turns its knob into a KV budget, in a few words.
std::string BudgetRule(const PlanResult& r) {
  if (r.engine == "sglang") {
    return fmt::format("{:.2f} x free before load - in use after load", r.fraction);
  }
  if (r.engine == "vllm") {
    const Figure* g = r.FindFigure("cuda_graph_gib");
    bool graph = r.era.find("CUDA-graph") != std::string::npos && g && g->value > 0;
    return fmt::format("{:.2f} x total - weights - activations - non-torch{}", r.fraction,
                       graph ? " - graphs" : "");
  }
  return fmt::format("{:.2f} x (free after load)", r.fraction);
}

// The one line on where the difference comes from.
std::string CompareDifference(const std::vector<CompareRow>& rows) {
  std::vector<const PlanResult*> ok;
  for (const CompareRow& r : rows) {
    if (r.plan && r.plan->max_total_num_tokens > 0) ok.push_back(&*r.plan);
  }
  if (ok.size() < 2) return "fewer than two engines could place a KV cache; nothing to compare";
  std::sort(ok.begin(), ok.end(), [](const PlanResult* a, const PlanResult* b) {
    return a->max_total_num_tokens > b->max_total_num_tokens;
  });
  const PlanResult* hi = ok.front();
  const PlanResult* lo = ok.back();
  double ratio = static_cast<double>(hi->max_total_num_tokens) /
                 static_cast<double>(std::max<int64_t>(1, lo->max_total_num_tokens));
  bool same_cell = std::all_of(ok.begin(), ok.end(), [&](const PlanResult* p) {
    return p->cell_size_bytes == hi->cell_size_bytes;
  });
  std::string head;
  if (same_cell) {
    head = fmt::format(
        "Same {} B of KV per token per GPU in every engine, so the budgets make the difference "
        "({} holds {:.2f}x the tokens of {})",
        WithThousands(hi->cell_size_bytes), CompareEngineName(hi->engine), ratio,
        CompareEngineName(lo->engine));
  } else {
    std::string cells;
    for (const PlanResult* p : ok) {
      cells += fmt::format("{}{} {} B", cells.empty() ? "" : ", ", CompareEngineName(p->engine),
                           WithThousands(p->cell_size_bytes));
    }
    head = fmt::format(
        "KV bytes per token per GPU differ ({}: the engines count KV heads or sliding layers "
        "differently) and so do the budgets ({} holds {:.2f}x the tokens of {})",
        cells, CompareEngineName(hi->engine), ratio, CompareEngineName(lo->engine));
  }
  std::string why;
  for (const PlanResult* p : ok) why += (why.empty() ? "" : "; ") + Why(*p);
  return head + ": " + why + ".";
}

}  // namespace kvplan
