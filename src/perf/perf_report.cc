#include "perf/perf_report.h"

#include "base/checked_math.h"
#include "engines/sglang/graph_estimate.h"
#include "engines/sglang/sglang.h"
#include "engines/sglang/speculative.h"
#include "engines/sglang/stages.h"

#include <algorithm>

#include <fmt/format.h>

#include "kvplan/error.h"
#include "perf/collectives.h"
#include "perf/cuda_graph.h"
#include "perf/custom_allreduce.h"

namespace kvplan {
namespace {

void Validate(const PerfRequest& r) {
  if (r.par.tp < 1 || r.par.pp < 1 || r.par.dp < 1 || r.par.ep < 1) {
    throw InputError("--tp, --pp, --dp and --ep must be at least 1");
  }
  if (r.par.dp_attention && r.par.tp % r.par.dp != 0) {
    throw InputError(
        fmt::format("--dp {} must divide --tp {} under DP attention", r.par.dp, r.par.tp));
  }
  if (r.model.num_attention_heads > 0 && r.model.num_attention_heads % r.par.AttentionTp() != 0) {
    throw InputError(fmt::format("attention TP {} does not divide the {} attention heads of {}",
                                 r.par.AttentionTp(), r.model.num_attention_heads, r.model.id));
  }
  if (r.context < 0) throw InputError("--context must be >= 0");
  CheckedAtMost(r.context, kMaxInputCount, "--context");
  for (int b : r.batch_sizes) {
    if (b < 1) throw InputError(fmt::format("batch size {} must be at least 1", b));
    CheckedAtMost(b, kMaxInputCount, "batch size");
  }
  for (int64_t p : r.prompt_lengths) {
    if (p < 1) throw InputError(fmt::format("prompt length {} must be at least 1", p));
    CheckedAtMost(p, kMaxInputCount, "prompt length");
  }
  if (r.chunked_prefill_size < 1) throw InputError("chunked prefill size must be at least 1");
  CheckedAtMost(r.chunked_prefill_size, kMaxInputCount, "--chunked-prefill-size");
}

std::string AllreduceSummary(const StepContext& c, double bytes) {
  const int n = c.par.AttentionTp();
  if (n <= 1) return "none (TP 1)";
  const int64_t b = static_cast<int64_t>(bytes);
  if (c.allreduce != AllreducePolicy::kNcclOnly) {
    const CustomArDecision d = ChooseCustomAllreduce(n, (b + 15) / 16 * 16, c.fabric,
                                                     c.allreduce == AllreducePolicy::kForceCustom);
    if (d.kernel != CustomArKernel::kNone) {
      return fmt::format("custom allreduce {} ({:.1f} us at {} B)", d.reason,
                         EngineAllreduceUs(b, n, c.fabric, c.allreduce, true), b);
    }
  }
  const CollectiveTime t =
      NcclCollectiveTime(Collective::kAllReduce, b, n, c.fabric, LaunchMode::kCudaGraph);
  return fmt::format("NCCL {}/{} ({:.1f} us at {} B)", NcclAlgoName(t.algo), NcclProtoName(t.proto),
                     t.us, b);
}

// Says which engine behaviours decide the speculative rows, so that a user
// who sees a slowdown knows what to change.
void AddSpeculationNotes(const PerfRequest& r, const StepContext& tc, PerfReport* out) {
  if (tc.extend_attention == ExtendAttention::kTritonPerHead) {
    const ForwardShape verify{1, static_cast<double>(r.spec.num_draft_tokens),
                              static_cast<double>(r.context), 1, true};
    const double ms = ForwardTime(tc, verify).attention_us / 1000.0;
    const int blocks = static_cast<int>(std::max(1.0, tc.model->heads / tc.par.AttentionTp()));
    out->notes.push_back(fmt::format(
        "SGLang runs this model's attention on its Triton backend here (compute capability {}.{}): "
        "the verify kernel puts one block per head ({} blocks on {} SMs) over the whole cache, "
        "{:.1f} ms per verify at batch 1 and context {}; --attention-backend flashinfer (or fa3 "
        "on Hopper) splits the cache",
        tc.compute_capability / 10, tc.compute_capability % 10, blocks, tc.sm_count, ms,
        r.context));
  }
  const bool above_48 =
      std::any_of(r.batch_sizes.begin(), r.batch_sizes.end(), [](int b) { return b > 48; });
  if (r.spec_engine == SpecEngine::kSglang && above_48) {
    // server_args.py (#4908): speculative decoding resets max_running_requests to 48.
    out->notes.push_back(
        "SGLang runs at most 48 requests with speculative decoding unless "
        "--max-running-requests is given (#4908); the rows above 48 assume it is");
  }
  if (r.spec_engine == SpecEngine::kSglang && !r.spec.sglang_spec_v2) {
    out->notes.push_back(fmt::format(
        "SGLang's spec v1 turns the overlap scheduler off: {:.1f} ms of host time per iteration "
        "assumed (--spec-v1-serial-us); SGLANG_ENABLE_SPEC_V2=1 (--spec-v2) keeps it on",
        tc.eff.sglang_spec_v1_serial_us / 1000.0));
  }
}

}  // namespace

StepContext MakeStepContext(const ModelGeometry& g, const PerfRequest& r) {
  StepContext c = GpuStepContext(&g, r.gpu);
  // The draft runs on the target's attention backend, so the target decides.
  if (r.spec_engine == SpecEngine::kSglang) {
    c.extend_attention = SglangExtendAttention(
        r.gpu.compute_capability, r.model.attention == AttentionKind::kMla, r.attention_backend);
  }
  c.fabric = MakeFabric(r.gpu, r.topology, std::max(1, r.par.tp));
  c.par = r.par;
  c.kv_bytes_per_elem = r.kv_bytes_per_elem;
  c.allreduce = r.allreduce;
  c.eff = r.eff;
  return c;
}

ModelSpec SyntheticEagleDraft(const ModelSpec& t) {
  ModelSpec d;
  d.id = t.id + " (synthetic EAGLE-3 head)";
  d.architecture = "LlamaForCausalLMEagle3";
  d.vocab_size = t.vocab_size;
  d.hidden_size = t.hidden_size;
  d.num_layers = 1;
  d.head_dim = 128;
  d.v_head_dim = 128;
  d.num_attention_heads = std::max(1, t.hidden_size / 128);
  d.num_kv_heads = std::min(8, d.num_attention_heads);
  d.intermediate_size = t.intermediate_size > 0 ? t.intermediate_size : 3 * t.hidden_size;
  d.layer_kinds.assign(1, LayerKind::kFull);
  d.dtype_bytes = 2;
  return d;
}

ModelGeometry SpecDraftGeometry(const PerfRequest& r, const ModelGeometry& target) {
  if (r.spec.algorithm == SpecAlgorithm::kNextn) return MtpDraftGeometry(target);
  return MakeGeometry(r.draft ? *r.draft : SyntheticEagleDraft(r.model));
}

StepBreakdown PrefillTime(const StepContext& c, int64_t prompt, int chunk) {
  StepBreakdown sum;
  for (int64_t done = 0; done < prompt; done += chunk) {
    const double len = static_cast<double>(std::min<int64_t>(chunk, prompt - done));
    const ForwardShape s{1, len, static_cast<double>(done), 1, false};
    const StepBreakdown b = ForwardTime(c, s);
    sum.gemm_us += b.gemm_us;
    sum.attention_us += b.attention_us;
    sum.comm_us += b.comm_us;
    sum.overhead_us += b.overhead_us;
    sum.total_us += b.total_us;
    sum.collectives += b.collectives;
  }
  return sum;
}

namespace {

// The draft's geometry (EAGLE/EAGLE-3/standalone: the draft model's own or a
// synthetic head; NextN: one target layer), the speculative summary and its
// notes; `sc` gets the acceptance length SGLang will reach.
ModelGeometry SpeculationSetup(const PerfRequest& r, const ModelGeometry& target, SpecConfig* sc,
                               PerfReport* out) {
  const ModelGeometry draft_geom = SpecDraftGeometry(r, target);
  if (r.spec.algorithm != SpecAlgorithm::kNextn && !r.draft) {
    out->notes.push_back(
        "no --speculative-draft-model-path: the draft is a synthetic one-layer EAGLE-3 head at "
        "the target's hidden size");
  }
  out->spec =
      fmt::format("{} steps {} topk {} draft tokens {}", SpecAlgorithmName(r.spec.algorithm),
                  r.spec.num_steps, r.spec.eagle_topk, r.spec.num_draft_tokens);
  out->spec_config = r.spec;
  out->accept_length = AcceptLength(r.spec);
  const bool eagle3_under_eagle = r.spec_engine == SpecEngine::kSglang &&
                                  r.spec.algorithm == SpecAlgorithm::kEagle && r.draft &&
                                  SglangEagleWithEagle3Draft("EAGLE", &*r.draft);
  if (eagle3_under_eagle) {
    // sglang PR #21272: the EAGLE-3 head sees one layer's hidden state and accepts nothing.
    if (!r.spec.accept_length) sc->accept_length = out->accept_length = 1.0;
    out->notes.push_back(
        "--speculative-algorithm EAGLE with an EAGLE-3 draft: SGLang accepts no draft token "
        "(accept len 1.00, sglang PR #21272); use EAGLE3");
  } else if (!r.spec.accept_length) {
    out->notes.push_back(fmt::format(
        "acceptance length {:.2f} is kvplan's default for this draft shape (per-token "
        "acceptance {:.2f}); pass --accept-length from your own runs",
        out->accept_length,
        r.spec.algorithm == SpecAlgorithm::kNextn ? kMtpTokenAcceptance : kEagleTokenAcceptance));
  }
  return draft_geom;
}

// The SGLang flags that launch a perf request's layout and speculative algorithm.
SglangArgs LayoutSglangArgs(const PerfRequest& r) {
  SglangArgs a;
  a.tp = r.par.tp;
  a.pp = r.par.pp;
  a.dp = r.par.dp;
  a.ep = r.par.ep;
  a.enable_dp_attention = r.par.dp_attention;
  if (r.spec.algorithm != SpecAlgorithm::kNone) {
    a.speculative_algorithm = SpecAlgorithmName(r.spec.algorithm);
  }
  return a;
}

// The decode graphs SGLang captures and their memory (engines/sglang: the
// release's capture list and graph token widths; kvplan's memory fit).
void AddGraphMemory(const PerfRequest& r, const ModelGeometry& target,
                    const ModelGeometry& draft_geom, PerfReport* out) {
  const bool spec = r.spec.algorithm != SpecAlgorithm::kNone;
  out->cuda_graph_max_bs = r.cuda_graph_max_bs;
  int64_t largest = 0;
  if (r.cuda_graph_max_bs > 0) {
    SglangArgs a = LayoutSglangArgs(r);
    a.cuda_graph_max_bs = r.cuda_graph_max_bs;
    const std::vector<int64_t> list =
        SglangDecodeCaptureList(r.sglang_version, r.model, r.gpu.capacity_mib, a);
    out->cuda_graphs = static_cast<int>(list.size());
    // cuda_graph_runner.py can_run: a batch above the largest captured one runs eagerly.
    if (!list.empty()) largest = list.back();
  }
  SglangSpecParams sp;
  sp.draft_tokens = r.spec.num_draft_tokens;
  out->largest_graphed_batch = static_cast<int>(largest);
  out->cuda_graph_bytes =
      CudaGraphMemoryBytes(target, r.par, SglangTargetGraphTokens(r.cuda_graph_max_bs, spec, sp));
  if (spec) {
    const SpecMemory sm =
        SpeculativeMemory(draft_geom, r.par, r.kv_bytes_per_elem, r.spec, r.cuda_graph_max_bs,
                          r.spec.algorithm == SpecAlgorithm::kNextn);
    out->spec_extra_bytes = sm.weight_bytes + sm.graph_bytes;
    out->spec_kv_bytes_per_token = sm.kv_bytes_per_token;
  }
}

}  // namespace

SglangLaunchDefaults SglangLaunchDefaultsOf(const PerfRequest& r,
                                            std::optional<int> cuda_graph_max_bs) {
  Validate(r);  // perf's own messages before the engine's
  SglangArgs a = LayoutSglangArgs(r);
  a.attention_backend = r.attention_backend;
  if (cuda_graph_max_bs) a.cuda_graph_max_bs = *cuda_graph_max_bs;
  // Only a model without a context length needs one for the settings stage.
  if (r.model.max_position_embeddings <= 0) a.context_length = std::max<int64_t>(1, r.context);
  const ModelSpec* draft = r.draft ? &*r.draft : nullptr;
  const SglangLaunch launch = SglangLaunchOf(r.sglang_version, r.model, r.gpu, a, draft);
  const SglangSettings s = SglangSettingsOf(launch, r.model, r.gpu, SglangMeasured{}, true);
  SglangLaunchDefaults d;
  d.version = launch.version;
  d.cuda_graph_max_bs = static_cast<int>(s.defaults.cuda_graph_max_bs);
  d.cuda_graph_rule = s.defaults.cuda_graph_rule;
  // The request pool depends on the profiled tokens only without speculation,
  // and is then at least 2048, above every capture list: 0 tokens suffice.
  const SglangRequestPool pool = SglangRequestPoolOf(launch, s, 0);
  if (launch.era->capture_clipped_to_pool && d.cuda_graph_max_bs > pool.max_num_reqs) {
    d.cuda_graph_max_bs = static_cast<int>(pool.max_num_reqs);
    d.cuda_graph_rule += fmt::format("{}clipped to the request pool ({})",
                                     d.cuda_graph_rule.empty() ? "" : "; ", pool.max_num_reqs);
    d.clipped_to_pool = true;
  }
  d.chunked_prefill_size = static_cast<int>(s.chunked_prefill_size);
  d.chunked_prefill_rule = s.defaults.chunked_prefill_rule;
  return d;
}

PerfReport RunPerf(const PerfRequest& r) {
  Validate(r);
  PerfReport out;
  out.model_id = r.model.id;
  out.gpu_id = r.gpu.id;
  out.topology = TopologyName(r.topology);
  out.par = r.par;
  out.context = r.context;
  const ModelGeometry target = MakeGeometry(r.model);
  const StepContext tc = MakeStepContext(target, r);
  out.allreduce = AllreduceSummary(tc, target.hidden * 2);

  const bool spec = r.spec.algorithm != SpecAlgorithm::kNone;
  SpecConfig sc = r.spec;
  const ModelGeometry draft_geom = spec ? SpeculationSetup(r, target, &sc, &out) : ModelGeometry{};
  StepContext dc = MakeStepContext(draft_geom, r);
  AddGraphMemory(r, target, draft_geom, &out);

  for (int b : r.batch_sizes) {
    DecodeRow row;
    row.batch = b;
    row.cuda_graph = DecodeReplaysGraph(b, out.largest_graphed_batch, r.par);
    const double bs = b;
    const ForwardShape s{bs, 1, static_cast<double>(r.context), bs, row.cuda_graph};
    const StepBreakdown d = ForwardTime(tc, s);
    const double pp = std::max(1, r.par.pp);
    row.tpot_ms = d.total_us * pp / 1000.0;
    row.tokens_per_s =
        bs / (d.total_us * pp) * 1e6 * r.par.dp / (r.par.dp_attention ? r.par.dp : 1);
    row.comm_share = d.comm_us / d.total_us;
    row.collectives = d.collectives;
    if (spec) {
      const SpecStep st = SpeculativeStep(tc, dc, sc, r.spec_engine, bs,
                                          static_cast<double>(r.context), row.cuda_graph);
      row.spec_tpot_ms = st.tpot_ms * pp;
      row.spec_tokens_per_s = st.tokens_per_s / pp;
      row.spec_speedup = st.speedup;
      row.spec_verify_comm_share = st.verify_comm_us / st.verify_us;
    }
    out.decode.push_back(row);
  }
  if (spec) AddSpeculationNotes(r, tc, &out);
  for (int64_t p : r.prompt_lengths) {
    const StepBreakdown t = PrefillTime(tc, p, r.chunked_prefill_size);
    out.prefill.push_back({p, t.total_us * std::max(1, r.par.pp) / 1000.0, t.comm_us / t.total_us});
  }
  return out;
}

}  // namespace kvplan
