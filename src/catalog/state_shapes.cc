// HybridStateShapes: the per-rank conv and SSM state of each state layer.
#include "catalog/state_shapes.h"

#include <string>

#include "base/checked_math.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

constexpr std::string_view kStateWhat = "the model's per-request state (from its config.json)";

// distributed/utils.py divide(): both engines assert an exact split.
int64_t DivideExactly(int64_t n, int tp, const char* what, const ModelSpec& m) {
  if (n % tp != 0) {
    throw InputError(m.id + ": " + what + " (" + std::to_string(n) +
                     ") is not divisible by the tensor-parallel size " + std::to_string(tp) +
                     "; the engines shard the mamba / linear-attention state evenly");
  }
  return n / tp;
}

// mamba_utils.py extra_groups_for_head_shards: groups that do not split over
// the ranks are replicated up to one per rank (n_groups == 1 -> tp).
int64_t ExtendedGroups(int64_t groups, int tp) {
  return groups % tp == 0 ? groups : groups + (tp - groups);
}

// Mamba2StateShape.create: conv_dim = intermediate + 2 x n_groups x state_size
// (groups extended first), conv (conv_dim / tp, kernel - 1), temporal
// (heads / tp, head_dim, state_size).
HybridState Mamba2Shape(const ModelSpec& m, int tp, int64_t intermediate, int64_t groups,
                        int64_t heads, int64_t head_dim, int64_t state_size, int64_t kernel) {
  HybridState s;
  s.conv_dim = CheckedAdd(
      intermediate, CheckedMul(2 * ExtendedGroups(groups, tp), state_size, kStateWhat), kStateWhat);
  s.shape.conv_channels = DivideExactly(s.conv_dim, tp, "the conv channels", m);
  s.shape.conv_width = kernel - 1;
  s.shape.heads = DivideExactly(heads, tp, "the state heads", m);
  s.shape.head_dim = head_dim;
  s.shape.state_size = state_size;
  return s;
}

// Mamba-1 (Jamba; vLLM MambaStateShapeCalculator.mamba1_state_shape @v0.11.0): conv
// (intermediate / tp, kernel - 1) and SSM (intermediate / tp, state_size), written here as
// heads = intermediate / tp of head_dim 1.
HybridState Mamba1Shape(const ModelSpec& m, int tp) {
  HybridState s;
  s.conv_dim = m.mamba_intermediate_size;
  s.shape.conv_channels = DivideExactly(s.conv_dim, tp, "the mamba channels", m);
  s.shape.conv_width = m.mamba_conv_kernel - 1;
  s.shape.heads = s.shape.conv_channels;
  s.shape.head_dim = 1;
  s.shape.state_size = m.mamba_state_size;
  return s;
}

// LFM2's short convolution: a conv window of (conv_dim / tp, conv_L_cache - 1) and no
// recurrent state. vLLM MambaStateShapeCalculator.short_conv_state_shape @v0.10.2
// (divide(conv_dim, tp), one tensor); SGLang configs/lfm2.py mamba2_cache_params (#16890,
// 2026-01-22) builds a Mamba2StateShape of intermediate hidden_size and state_size 0, the
// same channels (ReadLfm2 refuses a conv_dim other than hidden_size).
HybridState ShortConvShape(const ModelSpec& m, int tp) {
  HybridState s;
  s.conv_dim = m.mamba_intermediate_size;
  s.shape.conv_channels = DivideExactly(s.conv_dim, tp, "the short-conv channels", m);
  s.shape.conv_width = m.mamba_conv_kernel - 1;
  return s;
}

// MiniMax-Text-01 / M1 lightning attention: one (heads / tp, head_dim, head_dim) state and
// no conv window. vLLM MambaStateShapeCalculator.linear_attention_state_shape @v0.10.1
// (and @v0.20.1) divides the heads with //, not divide(): an uneven split is floored there.
HybridState LightningShape(const ModelSpec& m, int tp) {
  HybridState s;
  s.shape.heads = m.linear_num_value_heads / tp;
  s.shape.head_dim = m.linear_value_head_dim;
  s.shape.state_size = m.linear_value_head_dim;
  return s;
}

}  // namespace

int64_t HybridState::BytesPerRequest(int conv_bytes, int ssm_bytes) const {
  const int64_t conv = CheckedMul(shape.ConvElements(), conv_bytes, kStateWhat);
  const int64_t ssm =
      CheckedMul(CheckedMul(shape.heads * shape.head_dim, shape.state_size, kStateWhat), ssm_bytes,
                 kStateWhat);
  return CheckedMul(CheckedAdd(conv, ssm, kStateWhat), layers, kStateWhat);
}

HybridState HybridStateShapes(const ModelSpec& m, int tp) {
  const int layers = m.NumLayersOfKind(LayerKind::kLinear);
  if (layers == 0 || tp <= 0) return {};
  HybridState s;
  if (m.state_kind == StateKind::kShortConv) {
    s = ShortConvShape(m, tp);
  } else if (m.state_kind == StateKind::kLightning) {
    s = LightningShape(m, tp);
  } else if (m.state_kind == StateKind::kMamba1) {
    s = Mamba1Shape(m, tp);
  } else if (m.state_kind == StateKind::kMamba2) {
    s = Mamba2Shape(m, tp, m.mamba_intermediate_size, m.mamba_n_groups, m.mamba_num_heads,
                    m.mamba_head_dim, m.mamba_state_size, m.mamba_conv_kernel);
  } else {
    // qwen3_next.py: the gated delta-net as a Mamba2 shape with
    // intermediate = value heads x value dim, n_groups = key heads,
    // head_dim = value dim and state_size = key dim; the key heads divide
    // evenly wherever the value heads do in released checkpoints.
    // Kimi delta attention (Kimi-Linear) is the same state with key heads = value heads:
    // SGLang configs/mamba_utils.py KimiLinearStateShape.create (sgl-project/sglang#12469,
    // 2025-10-31) and vLLM MambaStateShapeCalculator.kda_state_shape @v0.11.1 keep q, k and v
    // conv windows of heads x head_dim / tp channels each (3 x heads x head_dim in all) and a
    // (heads / tp, head_dim, head_dim) recurrent state.
    s = Mamba2Shape(m, tp, int64_t{m.linear_num_value_heads} * m.linear_value_head_dim,
                    m.linear_num_key_heads, m.linear_num_value_heads, m.linear_value_head_dim,
                    m.linear_key_head_dim, m.linear_conv_kernel_dim);
  }
  s.layers = layers;
  return s;
}

}  // namespace kvplan
