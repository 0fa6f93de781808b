// `kvplan models [--json]`: the bundled model catalog.
// `kvplan models show MODEL [--tp N ...] [--json]`: one model's geometry and
// its weights per rank under the given parallelism.
#include <memory>
#include <string>
#include <utility>

#include <fmt/core.h>

#include "base/units.h"
#include "catalog/model.h"
#include "catalog/model_json.h"
#include "catalog/sharding.h"
#include "catalog/weights.h"
#include "cli/verbs.h"

namespace kvplan::cli {
namespace {

struct ShowOptions {
  std::string model;
  Parallelism par;
  bool json = false;
};

std::string MoeSummary(const ModelSpec& m) {
  if (!m.IsMoe()) return "-";
  std::string s = fmt::format("{}/{}", m.num_experts, m.experts_per_token);
  int shared = m.num_shared_experts + (m.shared_expert_intermediate_size > 0 ? 1 : 0);
  if (shared > 0) s += fmt::format("+{}s", shared);
  return s;
}

std::string LayerMix(const ModelSpec& m) {
  std::string s;
  int sliding = m.NumLayersOfKind(LayerKind::kSliding);
  int linear = m.NumLayersOfKind(LayerKind::kLinear);
  int chunked = m.NumLayersOfKind(LayerKind::kChunked);
  if (sliding > 0) s += fmt::format("{} swa/{}", sliding, m.sliding_window);
  if (linear > 0) s += fmt::format("{}{} linear", s.empty() ? "" : ", ", linear);
  if (chunked > 0) {
    s += fmt::format("{}{} chunked/{}", s.empty() ? "" : ", ", chunked, m.attention_chunk_size);
  }
  return s.empty() ? "-" : s;
}

std::string Billions(int64_t params) {
  double b = static_cast<double>(params) / 1e9;
  return b < 10 ? fmt::format("{:.2f}", b) : fmt::format("{:.1f}", b);
}

void PrintCatalogTable() {
  constexpr const char* kRow = "{:<46} {:<31} {:>8} {:>6} {:<11} {:<9} {:<16} {:<17} {:>7}\n";
  fmt::print(kRow, "ID", "ARCHITECTURE", "PARAMS B", "LAYERS", "ATTENTION", "MOE", "SWA/LINEAR",
             "QUANT", "MAX CTX");
  for (const std::string& id : CatalogModelIds()) {
    ModelSpec m = LoadModel(id);
    WeightEstimate w = EstimateWeights(m, {});
    fmt::print(kRow, id, m.architecture, Billions(w.total_params), m.num_layers,
               AttentionSummary(m), MoeSummary(m), LayerMix(m), QuantSummary(m.quant),
               m.max_position_embeddings);
  }
  fmt::print(
      "\nATTENTION: KV heads x head_dim (GQA) or kv_lora_rank+qk_rope_head_dim (MLA). MOE: routed\n"
      "experts/top-k (+shared). PARAMS: the main model (MTP layers excluded). Details and the\n"
      "weights per rank: kvplan models show MODEL --tp N.\n");
}

void PrintCatalogJson() {
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& id : CatalogModelIds()) {
    ModelSpec m = LoadModel(id);
    nlohmann::json j = ModelSpecToJson(m);
    j["total_params"] = EstimateWeights(m, {}).total_params;
    out.push_back(std::move(j));
  }
  fmt::print("{}\n", out.dump(2));
}

std::string ParallelText(const Parallelism& p) {
  std::string s = fmt::format("tp {}", p.tp);
  if (p.pp > 1) s += fmt::format(", pp {}", p.pp);
  if (p.dp > 1) s += fmt::format(", dp {}", p.dp);
  if (p.ep > 1) s += fmt::format(", ep {}", p.ep);
  if (p.dp_attention) s += fmt::format(", dp-attention (attention tp {})", p.AttentionTp());
  if (p.dp_lm_head) s += ", dp-lm-head";
  return s;
}

void PrintGeometry(const ModelSpec& m) {
  fmt::print("model         {}\n", m.id);
  fmt::print("architecture  {} (family {}, dtype {}{})\n", m.architecture, m.family,
             m.torch_dtype.empty() ? "unset" : m.torch_dtype,
             m.IsDraft() ? ", " + m.draft_kind + " draft" : "");
  fmt::print("layers        {} ({})\n", m.num_layers,
             LayerMix(m) == "-" ? "all full" : LayerMix(m));
  fmt::print("hidden        {}, vocab {}, max context {}\n", m.hidden_size, m.vocab_size,
             m.max_position_embeddings);
  fmt::print("attention     {} heads, {}", m.num_attention_heads, AttentionSummary(m));
  if (m.attention == AttentionKind::kMla) {
    fmt::print(" (q_lora {}, qk_nope {}, v_head {}{})", m.q_lora_rank, m.qk_nope_head_dim,
               m.v_head_dim,
               m.index_head_dim > 0 ? fmt::format(", indexer {}", m.index_head_dim) : "");
  }
  fmt::print("\n");
  if (m.IsMoe()) {
    fmt::print("moe           {} experts, top-{}, expert ffn {}, {} of {} layers MoE{}\n",
               m.num_experts, m.experts_per_token, m.moe_intermediate_size, m.NumMoeLayers(),
               m.num_layers,
               m.num_nextn_predict_layers > 0
                   ? fmt::format(", {} MTP layer(s) not counted", m.num_nextn_predict_layers)
                   : "");
  } else {
    fmt::print("mlp           dense, intermediate {}\n", m.intermediate_size);
  }
  if (m.multimodal) {
    fmt::print("vision        {} layers, hidden {}\n", m.vision_layers, m.vision_hidden_size);
  }
  fmt::print("quantization  {}\n", QuantSummary(m.quant));
  if (m.checkpoint_bytes) {
    fmt::print("checkpoint    {} bytes ({:.2f} GiB, safetensors)\n", *m.checkpoint_bytes,
               ToGiB(*m.checkpoint_bytes));
  }
}

// One table row, without the padding a trailing empty column leaves.
template <typename... Args>
void PrintRow(fmt::format_string<Args...> row, Args&&... args) {
  std::string line = fmt::format(row, std::forward<Args>(args)...);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  fmt::print("{}\n", line);
}

void PrintWeights(const WeightEstimate& w, const Parallelism& p) {
  fmt::print("\nweights under {}{}:\n", ParallelText(p),
             p.pp > 1 ? fmt::format(" (largest stage {} of {})", w.stage, p.pp) : "");
  constexpr const char* kRow = "  {:<16} {:>16} {:>11} {:>12}  {}";
  PrintRow(kRow, "PART", "PARAMS", "STORED GiB", "PER RANK GiB", "SHARDING");
  for (const WeightPart& part : w.parts) {
    PrintRow(kRow, part.name, part.params, fmt::format("{:.3f}", ToGiB(part.bytes)),
             fmt::format("{:.3f}", ToGiB(part.bytes_per_rank)), part.sharding);
  }
  PrintRow(kRow, "total", w.total_params, fmt::format("{:.3f}", ToGiB(w.total_bytes)),
           fmt::format("{:.3f}", ToGiB(w.bytes_per_rank)),
           w.from_checkpoint ? "(stored total from safetensors)" : "");
}

void Show(const ShowOptions& o) {
  ModelSpec m = LoadModel(o.model);
  WeightEstimate w = EstimateWeights(m, o.par);
  if (o.json) {
    nlohmann::json j = ModelSpecToJson(m);
    j["parallelism"] = {{"tp", o.par.tp},
                        {"pp", o.par.pp},
                        {"dp", o.par.dp},
                        {"ep", o.par.ep},
                        {"dp_attention", o.par.dp_attention},
                        {"dp_lm_head", o.par.dp_lm_head}};
    j["weights"] = WeightEstimateToJson(w);
    j["sharding_problems"] = ShardingProblems(m, o.par);
    fmt::print("{}\n", j.dump(2));
    return;
  }
  PrintGeometry(m);
  PrintWeights(w, o.par);
  for (const std::string& problem : ShardingProblems(m, o.par)) {
    fmt::print("engine refuses this sharding: {}\n", problem);
  }
}

}  // namespace

void RegisterModelsVerb(Command& app) {
  Command* cmd = app.add_subcommand("models", "List the bundled model catalog");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print the catalog as JSON");

  Command* show = cmd->add_subcommand(
      "show", "Show one model's geometry and its weights per rank (catalog id, path or HF id)");
  auto opts = std::make_shared<ShowOptions>();
  show->add_option("model", opts->model, "Catalog id, config.json, model directory or HF id")
      ->required();
  show->add_option("--tp,--tp-size,--tensor-parallel-size", opts->par.tp, "Tensor parallel size")
      ->check_range(1, 65536);
  show->add_option("--pp,--pp-size,--pipeline-parallel-size", opts->par.pp,
                   "Pipeline parallel size")
      ->check_range(1, 65536);
  show->add_option("--dp,--dp-size,--data-parallel-size", opts->par.dp, "Data parallel size")
      ->check_range(1, 65536);
  show->add_option("--ep,--ep-size,--expert-parallel-size", opts->par.ep, "Expert parallel size")
      ->check_range(1, 65536);
  show->add_flag("--enable-dp-attention", opts->par.dp_attention,
                 "SGLang DP attention: attention split over tp/dp, embedding replicated");
  show->add_flag("--enable-dp-lm-head", opts->par.dp_lm_head,
                 "SGLang: split lm_head over the attention-TP group only");
  show->add_flag("--json", opts->json, "Print as JSON");
  show->callback([opts] { Show(*opts); });

  cmd->callback([show, json] {
    if (show->parsed()) return;
    *json ? PrintCatalogJson() : PrintCatalogTable();
  });
}

}  // namespace kvplan::cli
