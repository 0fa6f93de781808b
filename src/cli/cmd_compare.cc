// `kvplan compare`: SGLang, vLLM and TensorRT-LLM side by side for the same
// model, GPU, tensor parallelism and context length, each with its own default
// memory knob, and one line on where the difference in KV capacity comes from.
#include <algorithm>
#include <cstdio>
#include <memory>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "base/format.h"
#include "base/units.h"
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "cli/verbs.h"
#include "engines/engine.h"
#include "kvplan/error.h"

namespace kvplan::cli {
namespace {

struct CompareOptions {
  std::string model;
  std::string gpu;
  int tp = 1;
  int64_t context_length = 0;
  bool json = false;
};

struct Row {
  std::string engine;  // "sglang", "vllm", "trtllm"
  std::optional<PlanResult> plan;
  std::string error;  // kvplan could not plan it (InputError)
};

PlanRequest Request(const std::string& engine, const CompareOptions& o) {
  PlanRequest req;
  req.engine = engine;
  req.model = o.model;
  req.gpu = o.gpu;
  std::string tp = std::to_string(o.tp);
  std::string len = std::to_string(o.context_length);
  bool ctx = o.context_length > 0;
  if (engine == "sglang") {
    req.args = {"--tp", tp};
    if (ctx) req.args.insert(req.args.end(), {"--context-length", len});
  } else if (engine == "vllm") {
    req.args = {"--tensor-parallel-size", tp};
    if (ctx) req.args.insert(req.args.end(), {"--max-model-len", len});
  } else {
    req.args = {"--tp_size", tp};
    if (ctx) req.args.insert(req.args.end(), {"--max_seq_len", len});
  }
  return req;
}

double Concurrency(const PlanResult& r) {
  if (r.context_length <= 0) return 0;
  return static_cast<double>(r.max_total_num_tokens) / static_cast<double>(r.context_length);
}

std::string EngineName(const std::string& e) {
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

// The one line on where the difference comes from.
std::string Difference(const std::vector<Row>& rows) {
  std::vector<const PlanResult*> ok;
  for (const Row& r : rows) {
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
        WithThousands(hi->cell_size_bytes), EngineName(hi->engine), ratio, EngineName(lo->engine));
  } else {
    std::string cells;
    for (const PlanResult* p : ok) {
      cells += fmt::format("{}{} {} B", cells.empty() ? "" : ", ", EngineName(p->engine),
                           WithThousands(p->cell_size_bytes));
    }
    head = fmt::format(
        "KV bytes per token per GPU differ ({}: the engines count KV heads or sliding layers "
        "differently) and so do the budgets ({} holds {:.2f}x the tokens of {})",
        cells, EngineName(hi->engine), ratio, EngineName(lo->engine));
  }
  std::string why;
  for (const PlanResult* p : ok) why += (why.empty() ? "" : "; ") + Why(*p);
  return head + ": " + why + ".";
}

std::string RenderText(const CompareOptions& o, int64_t ctx, const std::vector<Row>& rows) {
  std::string out =
      fmt::format("kvplan compare: {} on {}x {} (tensor parallel {}), context {} tokens\n\n",
                  o.model, o.tp, o.gpu, o.tp, WithThousands(ctx));
  TextTable t({"ENGINE", "BUDGET RULE", "KV BUDGET", "WEIGHTS/GPU", "KV B/TOKEN", "KV TOKENS",
               "CONCURRENCY", "STATUS"});
  for (const Row& r : rows) {
    if (!r.plan) {
      t.AddRow({EngineName(r.engine), "-", "-", "-", "-", "-", "-", "not planned"});
      continue;
    }
    const PlanResult& p = *r.plan;
    t.AddRow({fmt::format("{} {}", EngineName(r.engine), p.engine_version), BudgetRule(p),
              FormatGiB(p.rest_memory_bytes), FormatGiB(p.weights_bytes_per_gpu),
              WithThousands(p.cell_size_bytes), WithThousands(p.max_total_num_tokens),
              fmt::format("{:.2f}x", Concurrency(p)), p.ok ? "starts" : "fails"});
  }
  out += t.Render();
  for (const Row& r : rows) {
    if (!r.error.empty()) out += fmt::format("\n  {}: {}", EngineName(r.engine), r.error);
    if (r.plan && !r.plan->ok) {
      out += fmt::format("\n  {} fails: {}", EngineName(r.engine), r.plan->error_message);
    }
  }
  out += "\n\n" + Difference(rows) + "\n";
  return out;
}

std::string RenderJson(const CompareOptions& o, int64_t ctx, const std::vector<Row>& rows) {
  nlohmann::json j;
  j["model"] = o.model;
  j["gpu"] = o.gpu;
  j["tp"] = o.tp;
  j["context_length"] = ctx;
  j["engines"] = nlohmann::json::array();
  for (const Row& r : rows) {
    nlohmann::json e;
    e["engine"] = r.engine;
    if (!r.plan) {
      e["planned"] = false;
      e["error"] = r.error;
    } else {
      const PlanResult& p = *r.plan;
      e["planned"] = true;
      e["version"] = p.engine_version;
      e["era"] = p.era;
      e["ok"] = p.ok;
      e["error_message"] = p.error_message;
      e["fraction_name"] = p.fraction_name;
      e["fraction"] = p.fraction;
      e["budget_rule"] = BudgetRule(p);
      e["kv_budget_bytes"] = p.rest_memory_bytes;
      e["weights_bytes_per_gpu"] = p.weights_bytes_per_gpu;
      e["kv_bytes_per_token"] = p.cell_size_bytes;
      e["kv_tokens"] = p.max_total_num_tokens;
      e["context_length"] = p.context_length;
      e["max_concurrency"] = Concurrency(p);
    }
    j["engines"].push_back(e);
  }
  j["difference"] = Difference(rows);
  return j.dump(2);
}

void RunCompare(const CompareOptions& o) {
  if (o.tp < 1 || o.tp > 64)
    throw InputError(fmt::format("--tp must be between 1 and 64, got {}", o.tp));
  if (o.context_length < 0) {
    throw InputError(fmt::format("--context-length must be positive, got {}", o.context_length));
  }
  // Unknown model or GPU: one error for the whole comparison, not three.
  const ModelSpec model = LoadModel(o.model);
  FindGpu(o.gpu);
  int64_t ctx = o.context_length > 0 ? o.context_length : model.max_position_embeddings;
  std::vector<Row> rows;
  for (const char* engine : {"sglang", "vllm", "trtllm"}) {
    Row row{engine, std::nullopt, ""};
    try {
      row.plan = PlanLaunch(Request(engine, o));
    } catch (const InputError& e) {
      row.error = e.what();
    }
    rows.push_back(std::move(row));
  }
  std::string text = o.json ? RenderJson(o, ctx, rows) + "\n" : RenderText(o, ctx, rows);
  std::fputs(text.c_str(), stdout);
}

}  // namespace

void RegisterCompareVerb(Command& app) {
  auto o = std::make_shared<CompareOptions>();
  Command* cmd = app.add_subcommand(
      "compare",
      "SGLang, vLLM and TensorRT-LLM side by side on the same GPUs: the KV budget each takes,\n"
      "weights, KV bytes per token, KV tokens and concurrency, and why they differ.");
  cmd->add_option("--model", o->model, "Model: catalog id, config.json or model dir")->required();
  cmd->add_option("--gpu", o->gpu, "GPU id or alias (kvplan gpus)")->required();
  cmd->add_option("--tp", o->tp, "Tensor parallel size (default 1)");
  cmd->add_option("--context-length", o->context_length,
                  "Context length for every engine (default: the model's)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { RunCompare(*o); });
}

}  // namespace kvplan::cli
