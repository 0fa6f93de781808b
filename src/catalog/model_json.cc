#include "catalog/model_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kvplan {

std::string LayerKindName(LayerKind k) {
  switch (k) {
    case LayerKind::kFull:
      return "full";
    case LayerKind::kSliding:
      return "sliding";
    case LayerKind::kChunked:
      return "chunked";
    case LayerKind::kLinear:
      return "linear";
  }
  return "?";
}

std::string AttentionSummary(const ModelSpec& m) {
  if (m.attention == AttentionKind::kMla) {
    return fmt::format("MLA {}+{}", m.kv_lora_rank, m.qk_rope_head_dim);
  }
  return fmt::format("GQA {}x{}", m.num_kv_heads, m.head_dim);
}

std::string QuantSummary(const Quantization& q) {
  if (q.method.empty()) return "-";
  if (q.block_n > 0) return fmt::format("{} {}x{}", q.method, q.block_n, q.block_k);
  if (q.group_size > 0) return fmt::format("{} w{} g{}", q.method, q.weight_bits, q.group_size);
  return fmt::format("{} w{}", q.method, q.weight_bits);
}

nlohmann::json ModelSpecToJson(const ModelSpec& m) {
  nlohmann::json j = {
      {"id", m.id},
      {"architecture", m.architecture},
      {"family", m.family},
      {"model_type", m.model_type},
      {"torch_dtype", m.torch_dtype},
      {"dtype_bytes", m.dtype_bytes},
      {"vocab_size", m.vocab_size},
      {"hidden_size", m.hidden_size},
      {"num_layers", m.num_layers},
      {"num_attention_heads", m.num_attention_heads},
      {"num_kv_heads", m.num_kv_heads},
      {"head_dim", m.head_dim},
      {"v_head_dim", m.v_head_dim},
      {"intermediate_size", m.intermediate_size},
      {"attention", m.attention == AttentionKind::kMla ? "mla" : "gqa"},
      {"max_position_embeddings", m.max_position_embeddings},
      {"tie_word_embeddings", m.tie_word_embeddings},
      {"sliding_window", m.sliding_window},
      {"attention_chunk_size", m.attention_chunk_size},
      {"multimodal", m.multimodal},
  };
  if (m.attention == AttentionKind::kMla) {
    j["mla"] = {{"q_lora_rank", m.q_lora_rank},
                {"kv_lora_rank", m.kv_lora_rank},
                {"qk_nope_head_dim", m.qk_nope_head_dim},
                {"qk_rope_head_dim", m.qk_rope_head_dim},
                {"index_head_dim", m.index_head_dim}};
  }
  if (m.IsMoe()) {
    j["moe"] = {{"num_experts", m.num_experts},
                {"experts_per_token", m.experts_per_token},
                {"moe_intermediate_size", m.moe_intermediate_size},
                {"num_shared_experts", m.num_shared_experts},
                {"shared_expert_intermediate_size", m.shared_expert_intermediate_size},
                {"moe_layers", m.NumMoeLayers()}};
  }
  nlohmann::json kinds = nlohmann::json::array();
  for (LayerKind k : m.layer_kinds) kinds.push_back(LayerKindName(k));
  j["layer_kinds"] = kinds;
  j["layer_is_moe"] = m.layer_is_moe;
  j["num_nextn_predict_layers"] = m.num_nextn_predict_layers;
  if (m.IsDraft()) j["draft"] = {{"kind", m.draft_kind}, {"draft_vocab_size", m.draft_vocab_size}};
  if (m.multimodal) {
    j["vision"] = {{"kind", m.vision_kind},
                   {"layers", m.vision_layers},
                   {"hidden_size", m.vision_hidden_size},
                   {"weights_counted", m.uncounted_weights.empty()}};
  }
  if (!m.uncounted_weights.empty()) j["not_counted"] = m.uncounted_weights;
  j["quantization"] = {{"method", m.quant.method},
                       {"weight_bits", m.quant.weight_bits},
                       {"group_size", m.quant.group_size},
                       {"block", {m.quant.block_n, m.quant.block_k}},
                       {"unquantized_modules", m.quant.unquantized_modules.size()}};
  j["checkpoint_bytes"] =
      m.checkpoint_bytes ? nlohmann::json(*m.checkpoint_bytes) : nlohmann::json(nullptr);
  return j;
}

nlohmann::json WeightEstimateToJson(const WeightEstimate& w) {
  nlohmann::json parts = nlohmann::json::array();
  for (const WeightPart& p : w.parts) {
    parts.push_back({{"name", p.name},
                     {"params", p.params},
                     {"bytes", p.bytes},
                     {"bytes_per_rank", p.bytes_per_rank},
                     {"sharding", p.sharding}});
  }
  return {{"total_params", w.total_params},
          {"total_bytes", w.total_bytes},
          {"bytes_per_rank", w.bytes_per_rank},
          {"from_checkpoint", w.from_checkpoint},
          {"stage", w.stage},
          {"stage_layers", w.stage_layers},
          {"parts", parts}};
}

}  // namespace kvplan
