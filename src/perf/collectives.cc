#include "perf/collectives.h"

#include <algorithm>
#include <cmath>

#include "perf/custom_allreduce.h"

namespace kvplan {
namespace {

constexpr double kActBytes = 2;  // bf16 hidden states

int64_t Bytes(double b) { return static_cast<int64_t>(b); }

LaunchMode Mode(bool graph) { return graph ? LaunchMode::kCudaGraph : LaunchMode::kEager; }

double Nccl(Collective c, double bytes, int n, const Fabric& f, bool graph) {
  return NcclCollectiveTime(c, Bytes(bytes), n, f, Mode(graph)).us;
}

}  // namespace

double EngineAllreduceUs(int64_t bytes, int n, const Fabric& f, AllreducePolicy policy,
                         bool cuda_graph) {
  if (n <= 1) return 0;
  if (policy != AllreducePolicy::kNcclOnly) {
    const bool forced = policy == AllreducePolicy::kForceCustom;
    // Round up to the 16-byte multiple the kernel needs (activations are padded).
    const int64_t padded = (bytes + 15) / 16 * 16;
    const CustomArDecision d = ChooseCustomAllreduce(n, padded, f, forced);
    if (d.kernel != CustomArKernel::kNone) return CustomAllreduceUs(d.kernel, n, padded, f);
  }
  return NcclCollectiveTime(Collective::kAllReduce, bytes, n, f, Mode(cuda_graph)).us;
}

CommBreakdown ForwardComm(const StepContext& ctx, const ForwardShape& s, int layers,
                          int moe_layers) {
  CommBreakdown c;
  const ModelGeometry& m = *ctx.model;
  const int tp = ctx.par.tp;
  const int attn_tp = ctx.par.AttentionTp();
  const bool dp_attn = ctx.par.dp_attention && ctx.par.dp > 1;
  const double tokens = s.batch * s.q_len;  // whole TP group
  const double local = dp_attn ? tokens / ctx.par.dp : tokens;
  const Fabric& f = ctx.fabric;
  const bool g = s.cuda_graph;
  if (tp <= 1) return c;

  const double attn_bytes = local * m.hidden * kActBytes;
  c.allreduce_bytes = attn_bytes;
  if (attn_tp > 1) {
    c.us += layers * EngineAllreduceUs(Bytes(attn_bytes), attn_tp, f, ctx.allreduce, g);
    c.allreduces += layers;
  }
  // The MLP's reduction: every layer that has an MLP (dense or experts).
  const int pp = std::max(1, ctx.par.pp);
  const int mlp_layers = std::max(
      0, layers - static_cast<int>(std::lround(static_cast<double>(m.mlp_less_layers) / pp)));
  const int dense_layers = std::max(0, mlp_layers - moe_layers);
  const double full_bytes = tokens * m.hidden * kActBytes;
  if (!dp_attn) {
    c.us += mlp_layers * EngineAllreduceUs(Bytes(full_bytes), tp, f, ctx.allreduce, g);
    c.allreduces += mlp_layers;
  } else {
    const int gathered = ctx.par.ep > 1 ? dense_layers : mlp_layers;
    c.us += gathered * (Nccl(Collective::kAllGather, full_bytes, tp, f, g) +
                        Nccl(Collective::kReduceScatter, full_bytes, tp, f, g));
    c.allgathers += gathered;
    c.reduce_scatters += gathered;
    if (ctx.par.ep > 1) {
      const double a2a = local * m.top_k * m.hidden * kActBytes;
      c.us += 2.0 * moe_layers * Nccl(Collective::kAllToAll, a2a, tp, f, g);
      c.alltoalls += 2 * moe_layers;
    }
  }
  // VocabParallelEmbedding all-reduces its output.
  c.us += EngineAllreduceUs(Bytes(attn_bytes), attn_tp, f, ctx.allreduce, g);
  c.allreduces += attn_tp > 1 ? 1 : 0;
  // Vocab-parallel LM head: gather the logits.
  c.us += Nccl(Collective::kAllGather, s.logit_tokens * m.vocab * kActBytes, tp, f, g);
  c.allgathers += 1;
  return c;
}

}  // namespace kvplan
