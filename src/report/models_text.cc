// `kvplan models` and `kvplan models show` for people.
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/format.h"
#include "base/units.h"
#include "catalog/model_json.h"
#include "kvplan/render.h"
#include "report/catalog_results.h"

namespace kvplan {
namespace {

auto Out(std::string& out) { return std::back_inserter(out); }

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
  // Zamba2: its attention layers are uses of shared blocks, whose weights count once.
  if (m.shared_blocks > 0) {
    s += fmt::format("{}{} uses of {} shared blocks", s.empty() ? "" : ", ",
                     m.NumLayersOfKind(LayerKind::kFull), m.shared_blocks);
  }
  return s.empty() ? "-" : s;
}

// One table row, without the padding a trailing empty column leaves.
template <typename... Args>
void PrintRow(std::string& out, fmt::format_string<Args...> row, Args&&... args) {
  std::string line = fmt::format(row, std::forward<Args>(args)...);
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out += line + "\n";
}

std::string Billions(int64_t params) {
  double b = static_cast<double>(params) / 1e9;
  return b < 10 ? fmt::format("{:.2f}", b) : fmt::format("{:.1f}", b);
}

// The listing fits kTextColumns: the ID column takes what the figures leave, and an ID longer
// than that stands on its own line with its figures on the next.
constexpr size_t kIdWidth = 44;
constexpr const char* kListingRow = "{:<44} {:>6} {:>6} {:>7} {:<10} {:<9} {}";

// The layer kinds an architecture's bundled models use, for its heading line.
std::string LayerKindsOfGroup(const std::vector<const ModelListing::Entry*>& group) {
  std::string kinds;
  bool vision = false;
  constexpr std::pair<LayerKind, const char*> kNames[] = {{LayerKind::kFull, "full"},
                                                          {LayerKind::kSliding, "sliding-window"},
                                                          {LayerKind::kChunked, "chunked"},
                                                          {LayerKind::kLinear, "linear"}};
  for (const auto& [kind, name] : kNames) {
    bool used = false;
    for (const ModelListing::Entry* e : group) used = used || e->model.NumLayersOfKind(kind) > 0;
    if (used) kinds += fmt::format("{}{}", kinds.empty() ? "" : " + ", name);
  }
  bool indexer = false;
  for (const ModelListing::Entry* e : group) {
    vision = vision || e->model.multimodal;
    indexer = indexer || e->model.index_head_dim > 0;
    // DeepSeek-V4: a sliding window in every layer, compressed KV beside it in most.
    if (!e->model.compress_ratios.empty()) kinds = "sliding-window + compressed (c4, c128)";
  }
  return fmt::format("{} layers{}{}", kinds.empty() ? "no attention" : kinds,
                     indexer ? ", sparse-attention indexer" : "", vision ? ", vision tower" : "");
}

// The QUANT column holds what the row leaves (kTextColumns minus the other columns): the full
// summary when it fits, else with the method's short name (the footnote spells them out), then
// without the group size, then the short name alone.
constexpr size_t kQuantWidth = 12;
std::string ListingQuant(const Quantization& q) {
  std::string full = QuantSummary(q);
  if (full.size() <= kQuantWidth) return full;
  Quantization shortened = q;
  if (q.method == "compressed-tensors") shortened.method = "ct";
  if (q.method == "bitsandbytes") shortened.method = "bnb";
  for (std::string s :
       {QuantSummary(shortened), fmt::format("{} w{}", shortened.method, shortened.weight_bits)}) {
    if (s.size() <= kQuantWidth) return s;
  }
  return shortened.method;
}

void PrintListingRow(const ModelListing::Entry& e, std::string& out) {
  const ModelSpec& m = e.model;
  std::string id = e.id;
  if (id.size() > kIdWidth) {
    out += id + "\n";
    id.clear();
  }
  PrintRow(out, kListingRow, id, Billions(e.total_params), m.num_layers, m.max_position_embeddings,
           AttentionSummary(m), MoeSummary(m), ListingQuant(m.quant));
}

}  // namespace

std::string RenderModelsText(const ModelListing& models) {
  std::map<std::string, std::vector<const ModelListing::Entry*>> by_architecture;
  for (const ModelListing::Entry& e : models.entries) {
    by_architecture[e.model.architecture].push_back(&e);
  }
  std::string out;
  PrintRow(out, kListingRow, "ID", "PARAMS", "LAYERS", "MAX CTX", "ATTENTION", "MOE", "QUANT");
  for (const auto& [architecture, group] : by_architecture) {
    fmt::format_to(Out(out), "\n{} ({})\n", architecture, LayerKindsOfGroup(group));
    for (const ModelListing::Entry* e : group) PrintListingRow(*e, out);
  }
  fmt::format_to(
      Out(out),
      "\n{} models, {} architectures. PARAMS: billions, the main model (MTP layers excluded).\n"
      "ATTENTION: KV heads x head_dim (GQA) or kv_lora_rank+qk_rope_head_dim (MLA). MOE: routed\n"
      "experts/top-k (+shared). QUANT: ct = compressed-tensors, bnb = bitsandbytes. Layers of\n"
      "each kind, the whole quantization and the weights per rank: kvplan models show MODEL --tp "
      "N.\n",
      models.entries.size(), by_architecture.size());
  return out;
}

std::string RenderArchitecturesText(const ArchitectureListing& a) {
  // Layers, MLP and notes in one wrapped column, so the listing fits 100 columns.
  TextTable t({"ARCHITECTURE", "FAMILY", "LAYERS; MLP; NOTES"});
  int accepted = 0;
  for (const ArchitectureRow& r : a.rows) {
    accepted += r.accepted ? 1 : 0;
    std::string kinds;
    for (const std::string* part : {&r.layers, &r.mlp, &r.notes}) {
      if (part->empty() || *part == "-") continue;
      kinds += (kinds.empty() ? "" : "; ") + *part;
    }
    t.AddRow({r.architecture, r.family.empty() ? "-" : r.family, kinds});
  }
  std::string out = t.Render(0);
  fmt::format_to(Out(out),
                 "\n{} architectures accepted, {} refused by name (each row says why: a layer "
                 "kind not modelled yet, or no modelled engine release serves it).\n",
                 accepted, static_cast<int>(a.rows.size()) - accepted);
  return out;
}

namespace {

std::string ParallelText(const Parallelism& p) {
  std::string s = fmt::format("tp {}", p.tp);
  if (p.pp > 1) s += fmt::format(", pp {}", p.pp);
  if (p.dp > 1) s += fmt::format(", dp {}", p.dp);
  if (p.ep > 1) s += fmt::format(", ep {}", p.ep);
  if (p.dp_attention) s += fmt::format(", dp-attention (attention tp {})", p.AttentionTp());
  if (p.dp_lm_head) s += ", dp-lm-head";
  return s;
}

// MLA's low-rank sizes, after the attention summary ("" for other attention).
std::string MlaSummary(const ModelSpec& m) {
  if (m.attention != AttentionKind::kMla) return "";
  return fmt::format(" (q_lora {}, qk_nope {}, v_head {}{})", m.q_lora_rank, m.qk_nope_head_dim,
                     m.v_head_dim,
                     m.index_head_dim > 0 ? fmt::format(", indexer {}", m.index_head_dim) : "");
}

void PrintGeometry(const ModelSpec& m, std::string& out) {
  fmt::format_to(Out(out), "model         {}\n", m.id);
  fmt::format_to(Out(out), "architecture  {} (family {}, dtype {}{})\n", m.architecture, m.family,
                 m.torch_dtype.empty() ? "unset" : m.torch_dtype,
                 m.IsDraft() ? ", " + m.draft_kind + " draft" : "");
  fmt::format_to(Out(out), "layers        {} ({})\n", m.num_layers,
                 LayerMix(m) == "-" ? "all full" : LayerMix(m));
  // Pure state-space configs (MambaConfig) name no context length and no attention.
  fmt::format_to(Out(out), "hidden        {}, vocab {}, max context {}\n", m.hidden_size,
                 m.vocab_size,
                 m.max_position_embeddings > 0 ? std::to_string(m.max_position_embeddings)
                                               : "not set (plans need --max-model-len)");
  if (m.NumLayersOfKind(LayerKind::kLinear) == m.num_layers) {
    fmt::format_to(Out(out), "attention     none (state layers only)\n");
  } else {
    fmt::format_to(Out(out), "attention     {} heads, {}{}\n", m.num_attention_heads,
                   AttentionSummary(m), MlaSummary(m));
  }
  if (m.IsMoe()) {
    fmt::format_to(
        Out(out), "moe           {} experts, top-{}, expert ffn {}, {} of {} layers MoE{}\n",
        m.num_experts, m.experts_per_token, m.moe_intermediate_size, m.NumMoeLayers(), m.num_layers,
        m.num_nextn_predict_layers > 0
            ? fmt::format(", {} MTP layer(s) not counted", m.num_nextn_predict_layers)
            : "");
  } else if (m.intermediate_size == 0) {
    fmt::format_to(Out(out), "mlp           none\n");
  } else {
    fmt::format_to(Out(out), "mlp           dense, intermediate {}\n", m.intermediate_size);
  }
  if (m.multimodal) {
    fmt::format_to(Out(out), "vision        {} layers, hidden {}\n", m.vision_layers,
                   m.vision_hidden_size);
  }
  fmt::format_to(Out(out), "quantization  {}\n", QuantSummary(m.quant));
  if (m.checkpoint_bytes) {
    fmt::format_to(Out(out), "checkpoint    {} bytes ({:.2f} GiB, safetensors)\n",
                   *m.checkpoint_bytes, ToGiB(*m.checkpoint_bytes));
  }
}

void PrintWeights(const WeightEstimate& w, const Parallelism& p, std::string& out) {
  fmt::format_to(Out(out), "\nweights under {}{}:\n", ParallelText(p),
                 p.pp > 1 ? fmt::format(" (largest stage {} of {})", w.stage, p.pp) : "");
  constexpr const char* kRow = "  {:<16} {:>16} {:>11} {:>12}  {}";
  PrintRow(out, kRow, "PART", "PARAMS", "STORED GiB", "PER RANK GiB", "SHARDING");
  for (const WeightPart& part : w.parts) {
    PrintRow(out, kRow, part.name, part.params, fmt::format("{:.3f}", ToGiB(part.bytes)),
             fmt::format("{:.3f}", ToGiB(part.bytes_per_rank)), part.sharding);
  }
  PrintRow(out, kRow, "total", w.total_params, fmt::format("{:.3f}", ToGiB(w.total_bytes)),
           fmt::format("{:.3f}", ToGiB(w.bytes_per_rank)),
           w.from_checkpoint ? "(stored total from safetensors)" : "");
}

}  // namespace

std::string RenderModelShowText(const ModelShow& s) {
  std::string out;
  PrintGeometry(s.model, out);
  PrintWeights(s.weights, s.par, out);
  for (const std::string& problem : s.sharding_problems) {
    fmt::format_to(Out(out), "engine refuses this sharding: {}\n", problem);
  }
  return out;
}

}  // namespace kvplan
