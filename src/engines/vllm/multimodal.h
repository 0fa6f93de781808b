// vLLM's start-up memory for a multimodal model's encoder: the encoder budget
// (v1/core/encoder_cache_manager.py compute_encoder_budget), the dummy image
// batch profile_run encodes and keeps while it profiles the text model, and the
// vision tower's sharding under --mm-encoder-tp-mode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "catalog/model.h"
#include "catalog/weights.h"
#include "engines/vllm/vllm.h"

namespace kvplan {

struct VllmEncoderBudget {
  bool active = false;               // a multimodal model with images enabled
  int64_t max_tokens_per_item = 0;   // text tokens of the largest image
  int64_t compute_budget = 0;        // encoder tokens one step may run
  int64_t cache_size = 0;            // encoder cache, in text tokens
  int64_t profile_items = 0;         // images in profile_run's dummy batch
  int64_t profile_output_bytes = 0;  // their encoder outputs, held through the text dummy run
  // The encoder's own forward peak on that batch (0 where kvplan has no shape
  // for it): the patches' live activations at the widest point of a block.
  int64_t encoder_peak_bytes = 0;
  std::string rule;  // how the figures were found
};

// `mnbt` and `max_num_seqs` as resolved for the launch (VllmDefaults).
VllmEncoderBudget VllmEncoderBudgetOf(const ModelSpec& m, const VllmArgs& a, int64_t mnbt,
                                      int64_t max_num_seqs);

// The torch activation peak of V1's profile_run given the text model's dummy
// run peak `text_peak`: the encoder runs on the dummy batch first and frees its
// temporaries, then its outputs stay held while the text model runs, so the
// peak is max(encoder forward peak, outputs + text peak).
int64_t VllmProfileActivation(int64_t text_peak, const VllmEncoderBudget& b);

// Bytes the weight estimate (which replicates the vision tower on every rank)
// over-counts on one rank: vLLM's default --mm-encoder-tp-mode weights shards
// the tower's linear layers over TP; "data" replicates it. 0 at TP 1.
int64_t VllmEncoderWeightsOvercount(const WeightEstimate& w, const VllmArgs& a);

// The images per prompt --limit-mm-per-prompt allows ("image=0", '{"image": 0}'
// or '{"image": {"count": 0}}'); nullopt when it does not name images.
std::optional<int64_t> VllmImageLimit(const std::string& limit_mm_per_prompt);

}  // namespace kvplan
