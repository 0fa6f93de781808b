#include "perf/speculative.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "base/text.h"
#include "engines/sglang/era.h"
#include "engines/sglang/graph_estimate.h"
#include "engines/sglang/speculative.h"
#include "kvplan/error.h"
#include "perf/cuda_graph.h"

namespace kvplan {

SpecAlgorithm ParseSpecAlgorithm(const std::string& name) {
  const std::string u = ToUpper(name);
  if (u.empty() || u == "NONE") return SpecAlgorithm::kNone;
  if (u == "EAGLE") return SpecAlgorithm::kEagle;
  if (u == "EAGLE3") return SpecAlgorithm::kEagle3;
  if (u == "NEXTN" || u == "MTP") return SpecAlgorithm::kNextn;
  if (u == "STANDALONE") return SpecAlgorithm::kStandalone;
  throw InputError("unknown speculative algorithm '" + name +
                   "'; expected EAGLE, EAGLE3, NEXTN (MTP) or STANDALONE");
}

const char* SpecAlgorithmName(SpecAlgorithm a) {
  switch (a) {
    case SpecAlgorithm::kNone:
      return "none";
    case SpecAlgorithm::kEagle:
      return "EAGLE";
    case SpecAlgorithm::kEagle3:
      return "EAGLE3";
    case SpecAlgorithm::kNextn:
      return "NEXTN";
    case SpecAlgorithm::kStandalone:
      return "STANDALONE";
  }
  return "?";
}

SpecConfig ResolveSglangSpec(SpecAlgorithm algo, const std::string& arch, std::optional<int> steps,
                             std::optional<int> topk, std::optional<int> draft_tokens,
                             const std::string& sglang_version) {
  SpecConfig s;
  s.algorithm = algo;
  if (algo == SpecAlgorithm::kNone) return s;
  const bool any = steps || topk || draft_tokens;
  const bool all = steps && topk && draft_tokens;
  if (any && !all && !(steps && topk)) {
    throw InputError(
        "set all of --speculative-num-steps, --speculative-eagle-topk and "
        "--speculative-num-draft-tokens, or none (SGLang auto-chooses them together)");
  }
  SglangArgs a;
  a.speculative_algorithm = SpecAlgorithmName(algo);
  if (steps) a.speculative_num_steps = *steps;
  if (topk) a.speculative_eagle_topk = *topk;
  if (draft_tokens) a.speculative_num_draft_tokens = *draft_tokens;
  ModelSpec target;
  target.architecture = arch;
  std::string canonical;
  int64_t version = 0;
  SglangEraFor(sglang_version, &canonical, &version);
  const SglangSpecParams p = SglangSpeculativeParams(version, target, a);
  s.num_steps = static_cast<int>(p.steps);
  s.eagle_topk = static_cast<int>(p.topk);
  s.num_draft_tokens = static_cast<int>(p.draft_tokens);
  if (s.num_steps < 1 || s.eagle_topk < 1 || s.num_draft_tokens < 2) {
    throw InputError(
        "speculative settings must be num_steps >= 1, eagle_topk >= 1, "
        "num_draft_tokens >= 2");
  }
  return s;
}

double DefaultAcceptLength(const SpecConfig& s) {
  if (s.algorithm == SpecAlgorithm::kNone) return 1.0;
  double a = s.algorithm == SpecAlgorithm::kNextn ? kMtpTokenAcceptance : kEagleTokenAcceptance;
  if (s.eagle_topk > 1) a = 1.0 - std::pow(1.0 - a, std::sqrt(static_cast<double>(s.eagle_topk)));
  const int depth = SpecChainDepth(s);
  double tau = 0, p = 1;
  for (int i = 0; i <= depth; ++i, p *= a) tau += p;
  return tau;
}

int SpecChainDepth(const SpecConfig& s) {
  return std::min(s.num_steps, std::max(1, s.num_draft_tokens - 1));
}

double ChainTokenAcceptance(double tau, int depth) {
  if (!(tau >= 1.0 && tau <= depth + 1.0)) {
    throw InputError(fmt::format("accept length {} must be between 1 and the chain depth + 1 ({})",
                                 tau, depth + 1));
  }
  if (tau == 1.0) return 0.0;  // exactly: nothing but the bonus token
  if (tau == depth + 1.0) return 1.0;
  auto mean = [depth](double a) {
    double sum = 0, p = 1;
    for (int i = 0; i <= depth; ++i, p *= a) sum += p;
    return sum;
  };
  // The sum grows with a on [0, 1]: 60 halvings leave an error below 1e-18.
  double lo = 0, hi = 1;
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    (mean(mid) < tau ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double AcceptLength(const SpecConfig& s) {
  return s.accept_length ? *s.accept_length : DefaultAcceptLength(s);
}

ModelGeometry MtpDraftGeometry(const ModelGeometry& t) {
  ModelGeometry d = t;
  d.layers = 1;
  d.moe_layers = t.moe_layers > 0 ? 1 : 0;
  d.sliding_layers = 0;
  d.linear_layers = 0;
  return d;
}

SpecStep SpeculativeStep(const StepContext& target, const StepContext& draft,
                         const SpecConfig& spec, SpecEngine engine, double batch, double ctx,
                         bool cuda_graph) {
  SpecStep out;
  const double tau = AcceptLength(spec);
  out.accept_length = tau;
  const ForwardShape decode{batch, 1, ctx, batch, cuda_graph};
  const double baseline_us = ForwardTime(target, decode).total_us;
  out.baseline_tokens_per_s = batch / baseline_us * 1e6;

  const int topk = std::max(1, spec.eagle_topk);
  if (engine == SpecEngine::kSglang) {
    // eagle_worker.py @00559ea: num_steps - 1 draft forwards on bs x topk tokens
    // ("we don't need to run the last forward"), then after verify one
    // draft-extend forward over bs x (num_steps + 1) tokens.
    const ForwardShape step{batch * topk, 1, ctx, batch * topk, cuda_graph};
    const ForwardShape extend{batch, static_cast<double>(spec.num_steps + 1), ctx, batch,
                              cuda_graph};
    out.draft_us = (spec.num_steps - 1) * ForwardTime(draft, step).total_us +
                   ForwardTime(draft, extend).total_us;
  } else {
    // vLLM v1 EAGLE: one draft forward over the accepted tokens, then
    // num_speculative_tokens - 1 single-token forwards.
    const ForwardShape first{batch, tau, ctx, batch, cuda_graph};
    const ForwardShape step{batch, 1, ctx, batch, cuda_graph};
    out.draft_us = ForwardTime(draft, first).total_us +
                   (spec.num_steps - 1) * ForwardTime(draft, step).total_us;
  }
  const double n_verify =
      engine == SpecEngine::kSglang ? spec.num_draft_tokens : spec.num_steps + 1;
  const ForwardShape verify{batch, n_verify, ctx, batch * n_verify, cuda_graph};
  const StepBreakdown v = ForwardTime(target, verify);
  out.verify_us = v.total_us;
  out.verify_comm_us = v.comm_us;
  // Host work per iteration (tree building, acceptance bookkeeping); SGLang's
  // spec v1 also runs without the overlap scheduler that hides the plain
  // decode's scheduling, so that work and its GPU->CPU syncs are exposed.
  out.host_us = target.eff.spec_iteration_overhead_us;
  if (engine == SpecEngine::kSglang && !spec.sglang_spec_v2) {
    out.host_us += target.eff.sglang_spec_v1_serial_us;
  }
  out.iteration_us = out.draft_us + out.verify_us + out.host_us;
  out.tpot_ms = out.iteration_us / tau / 1000.0;
  out.tokens_per_s = batch * tau / out.iteration_us * 1e6;
  out.speedup = out.tokens_per_s / out.baseline_tokens_per_s;
  return out;
}

SpecMemory SpeculativeMemory(const ModelGeometry& d, const Parallelism& par,
                             double kv_bytes_per_elem, const SpecConfig& spec,
                             int cuda_graph_max_bs, bool shares_target_embedding) {
  SpecMemory m;
  if (spec.algorithm == SpecAlgorithm::kNone) return m;
  const int tp = std::max(1, par.tp);
  const int dense = d.layers - d.moe_layers;
  const double layer_bytes =
      d.layers * d.attn_params * d.attn_bytes_per_param +
      dense * d.dense_mlp_params * d.mlp_bytes_per_param +
      d.moe_layers * (d.num_experts * d.expert_params * d.expert_bytes_per_param +
                      d.shared_expert_params * d.shared_bytes_per_param +
                      d.router_params * d.dense_bytes_per_param);
  // The LM head is always the draft's; the embedding is shared for MTP.
  const double embed = shares_target_embedding ? d.embed_params : 2 * d.embed_params;
  m.weight_bytes = static_cast<int64_t>((layer_bytes + embed * d.dense_bytes_per_param) / tp);
  const double kv_split = d.kv_heads_for_split > 0
                              ? std::max(1.0, d.kv_heads_for_split / tp) / d.kv_heads_for_split
                              : 1.0;
  m.kv_bytes_per_token =
      static_cast<int64_t>(d.layers * d.kv_elems_per_token * kv_split * kv_bytes_per_elem);
  SglangSpecParams sp;
  sp.steps = spec.num_steps;
  sp.topk = spec.eagle_topk;
  sp.draft_tokens = spec.num_draft_tokens;
  const SglangDraftGraphWidths w = SglangDraftGraphTokens(cuda_graph_max_bs, sp);
  m.graph_bytes = CudaGraphMemoryBytes(d, par, w.decode) + CudaGraphMemoryBytes(d, par, w.extend);
  return m;
}

}  // namespace kvplan
