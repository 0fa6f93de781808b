// The per-request recurrent state of a hybrid model's linear-attention /
// mamba layers (LayerKind::kLinear) on one tensor-parallel rank, as element
// counts: the engines choose the dtypes (conv state bf16, SSM state float32
// by default) and the number of request slots. One owner for the shapes that
// SGLang's and vLLM's state pools are built from.
#pragma once

#include <cstdint>

#include "catalog/model.h"

namespace kvplan {

// One state layer on one rank: a conv window of conv_channels x conv_width
// and an SSM / recurrent state of heads x head_dim x state_size.
struct StateShape {
  int64_t conv_channels = 0;  // conv_dim / tp (conv_dim after the group extension)
  int64_t conv_width = 0;     // conv_kernel - 1
  int64_t heads = 0;          // SSM (value) heads / tp
  int64_t head_dim = 0;
  int64_t state_size = 0;

  int64_t ConvElements() const { return conv_channels * conv_width; }
  int64_t TemporalElements() const { return heads * head_dim * state_size; }
};

struct HybridState {
  int layers = 0;  // state layers (the model's kLinear layers); 0: no state
  StateShape shape;
  int64_t conv_dim = 0;  // conv channels before the TP split

  // Bytes one request's state takes on one rank, all state layers:
  // (conv elements x conv_bytes + temporal elements x ssm_bytes) x layers.
  int64_t BytesPerRequest(int conv_bytes, int ssm_bytes) const;
};

// The state shapes of `model` at attention tensor parallelism `tp`. Gated
// delta-net (Qwen3-Next, Qwen3.5): SGLang python/sglang/srt/configs/qwen3_next.py
// mamba2_cache_params @v0.5.5 (and v0.5.2 hybrid_gdn_params, the same counts),
// vLLM model_executor/layers/mamba/mamba_utils.py
// MambaStateShapeCalculator.gated_delta_net_state_shape @v0.11.0. Mamba2
// (Granite-4.0-H): SGLang configs/mamba_utils.py Mamba2StateShape.create @v0.5.5,
// vLLM MambaStateShapeCalculator.mamba2_state_shape @v0.11.0 (Nemotron-H, Bamba and
// Falcon-H1 the same). Mamba-1 (Jamba): vLLM mamba1_state_shape @v0.11.0. LFM2's short
// convolution: a conv window only (vLLM short_conv_state_shape @v0.10.2); MiniMax lightning
// attention: a (heads / tp, head_dim, head_dim) state only, heads floored (vLLM
// linear_attention_state_shape @v0.10.1). Both engines
// assert the split is exact; an uneven one throws InputError. Zero layers
// when the model has no state layers.
HybridState HybridStateShapes(const ModelSpec& model, int tp);

}  // namespace kvplan
