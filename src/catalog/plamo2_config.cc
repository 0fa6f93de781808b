// ReadPlamo2: the layer pattern and the Mamba mixer geometry of PLaMo-2.
#include "catalog/plamo2_config.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "catalog/json_fields.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using config_json::BoundedInt;
using config_json::Json;
using config_json::OptBool;
using config_json::RequireBoundedInt;

// vLLM models/plamo2.py is_mamba @v0.10.2: with fewer layers than mamba_step / 2 only the last
// layer attends; otherwise layer i attends when i % mamba_step == mamba_step / 2.
bool IsPlamo2Mamba(int layer, int num_layers, int step) {
  if (num_layers <= step / 2) return layer != num_layers - 1;
  return layer % step != step / 2;
}

// Plamo2MambaMixer @v0.10.2: intermediate = mamba_num_heads x hidden_size_per_head, heads of
// hidden_size_per_head channels, time_step_rank = max(64, hidden_size // 16); the state is
// MambaStateShapeCalculator.mamba2_state_shape with n_groups 0 (get_mamba_state_shape_from_config).
void ReadPlamo2Mixer(const Json& cfg, const std::string& origin, ModelSpec& m) {
  m.state_kind = StateKind::kMamba2;
  m.mamba_num_heads = RequireBoundedInt(cfg, "mamba_num_heads", origin);
  m.mamba_head_dim = m.head_dim;
  m.mamba_intermediate_size =
      BoundedInt(CheckedMul(m.mamba_num_heads, m.head_dim, "PLaMo-2 mamba intermediate size"),
                 "mamba_num_heads", origin);
  m.mamba_state_size = RequireBoundedInt(cfg, "mamba_d_state", origin);
  m.mamba_conv_kernel = RequireBoundedInt(cfg, "mamba_d_conv", origin);
  m.mamba_n_groups = 0;
  m.mamba_dt_rank = std::max<int>(64, static_cast<int>(m.hidden_size / 16));
  m.mamba_conv_bias = false;   // conv1d is a ColumnParallelLinear with bias=False
  m.mamba_proj_bias = false;   // in_proj, bcdt_proj, dt_proj, out_proj: bias=False
  m.mamba_gated_norm = false;  // no gated RMSNorm: dt_norm, B_norm, C_norm instead
  m.mamba_inner_norms = true;
}

}  // namespace

std::vector<std::string> ReadPlamo2(const Json& cfg, const std::string& origin, ModelSpec& m) {
  if (!OptBool(cfg, "mamba_enabled", origin).value_or(true)) {
    // plamo2.py reads no mamba_enabled: it builds Mamba layers whatever the flag says.
    throw InputError(origin +
                     ": mamba_enabled is false, which vLLM's plamo2.py ignores (it builds the "
                     "Mamba layers of mamba_step); kvplan does not plan such a checkpoint");
  }
  const int step = RequireBoundedInt(cfg, "mamba_step", origin);
  if (step <= 1) {
    // is_mamba asserts config.mamba_step > 1.
    throw InputError(origin + ": mamba_step is " + std::to_string(step) +
                     "; vLLM's plamo2.py asserts mamba_step > 1");
  }
  ReadPlamo2Mixer(cfg, origin, m);
  // The remote-code Plamo2Config sets sliding_window = attention_window_size "for vLLM", and
  // vLLM gives that window to every Attention layer (arg_utils.py create_engine_config @v0.10.2:
  // cache_config.sliding_window for a config without layer_types, not is_interleaved), so the
  // full_attention_idx that the remote modeling code reads leaves vLLM's cache unchanged.
  m.sliding_window = RequireBoundedInt(cfg, "attention_window_size", origin);
  std::vector<std::string> types;
  for (int i = 0; i < m.num_layers; ++i) {
    types.emplace_back(IsPlamo2Mamba(i, m.num_layers, step) ? "mamba" : "sliding_attention");
  }
  m.norms_per_layer = 4;  // pre_mixer, post_mixer, pre_mlp, post_mlp
  return types;
}

}  // namespace kvplan
