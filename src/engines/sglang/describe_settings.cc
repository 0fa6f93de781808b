// The effective settings of an SGLang plan, each with the rule that chose it,
// and the warnings about the launch itself; texts only, from the stages.
#include <fmt/core.h>

#include <utility>

#include "engines/common/flag_parser.h"
#include "engines/sglang/stages.h"

namespace kvplan {
namespace {

// `base` followed by `more`, separated by "; " when both are there.
std::string Joined(const std::string& base, const std::string& more) {
  return base + (base.empty() ? "" : "; ") + more;
}

std::string PageRuleText(SglangPageRule rule, const SglangArgs& a, const ModelSpec& model) {
  switch (rule) {
    case SglangPageRule::kUser:
      return "";
    case SglangPageRule::kDsa:
      return "DeepSeek DSA/NSA forces 64-token pages";
    case SglangPageRule::kBackend64:
      return fmt::format("--attention-backend {} needs 64-token pages", a.attention_backend);
    case SglangPageRule::kCutlassMla128:
      return "--attention-backend cutlass_mla needs 128-token pages";
    case SglangPageRule::kDeepseekV4:
      return "the DeepSeek-V4 defaults set 256-token pages";
    case SglangPageRule::kSm100Default:
      return fmt::format("SM100 default backend {} needs 64-token pages",
                         model.attention == AttentionKind::kMla ? "trtllm_mla" : "trtllm_mha");
    case SglangPageRule::kDefault:
      break;
  }
  return "default";
}

std::string KvRuleText(SglangKvRule rule, const ModelSpec& model, const GpuSpec& gpu) {
  switch (rule) {
    case SglangKvRule::kUser:
      return "";
    case SglangKvRule::kModelDtype:
      return fmt::format("auto: the model dtype ({})", model.torch_dtype);
    case SglangKvRule::kDeepseekV4:
      return "auto: fp8_e4m3 for DeepSeek-V4";
    case SglangKvRule::kDsaForcedFp8:
      return "DeepSeek DSA/NSA forces fp8_e4m3 on SM100 whatever was typed";
    case SglangKvRule::kDsaCapability:
      break;
  }
  return fmt::format("auto for DeepSeek DSA on compute capability {}", gpu.compute_capability);
}

std::string RequestsBaseRuleText(const SglangStages& s) {
  if (s.launch.deepseek_v4_requests) return "the DeepSeek-V4 defaults set 256";
  if (s.launch.args.max_running_requests) return "user";
  if (s.pool.spec_reset) return "reset to 48 for speculative decoding";
  return fmt::format("min(max(int({} / {} * 512), 2048), 4096)", s.tokens.profiled,
                     s.settings.context_length);
}

// Hybrid models: the state pool's slots bound the running requests.
std::string RequestsRuleText(const SglangStages& s) {
  std::string rule = RequestsBaseRuleText(s);
  if (s.pool.state_cap >= 0) {
    rule += fmt::format("; min(., max_mamba_cache_size {} // {}) = {} (state pool)", s.state.slots,
                        s.state.slots_per_request, s.pool.state_cap);
  }
  return rule;
}

// The settings the engine resolves before it measures memory.
void DescribeStartSettings(const SglangStages& s, const ModelSpec& model, const GpuSpec& gpu,
                           PlanResult* r) {
  const SglangArgs& a = s.launch.args;
  const SglangSettings& st = s.settings;
  const SglangDefaults& d = st.defaults;
  auto setting = [r](std::string flag, std::string value, bool user, std::string rule) {
    r->settings.push_back({std::move(flag), std::move(value), user, std::move(rule)});
  };
  setting("--mem-fraction-static", fmt::format("{:.3f}", st.mem_fraction_static), r->fraction_user,
          st.multimodal_factor == 0
              ? d.mem_fraction_rule
              : Joined(d.mem_fraction_rule,
                       fmt::format("multimodal model: * {:.4f}", st.multimodal_factor)));
  setting("--chunked-prefill-size", std::to_string(st.chunked_prefill_size),
          a.chunked_prefill_size.has_value(),
          a.enable_dp_attention ? Joined(d.chunked_prefill_rule,
                                         fmt::format("divided by dp {} under DP attention", a.dp))
                                : d.chunked_prefill_rule);
  if (s.launch.era->swa_mode == 2 || d.piecewise_cuda_graph) {
    const auto [name, value] = SglangPrefillGraphSetting(s.launch.version, d.piecewise_cuda_graph);
    setting(name, value, a.piecewise_cuda_graph.has_value(), d.piecewise_rule);
  }
  setting("--page-size", std::to_string(st.page_size),
          a.page_size.has_value() && st.page_size == *a.page_size,
          PageRuleText(st.page_rule, a, model));
  setting("--context-length", std::to_string(st.context_length), a.context_length.has_value(),
          "max_position_embeddings of the model config");
  setting("--kv-cache-dtype", a.kv_cache_dtype, s.launch.kv_rule == SglangKvRule::kUser,
          KvRuleText(s.launch.kv_rule, model, gpu));
  if (!s.launch.spec) return;
  const SglangSpecParams& sp = st.spec;
  setting("--speculative-num-steps", std::to_string(sp.steps), a.speculative_num_steps.has_value(),
          sp.rule);
  setting("--speculative-eagle-topk", std::to_string(sp.topk), a.speculative_eagle_topk.has_value(),
          sp.rule);
  setting("--speculative-num-draft-tokens", std::to_string(sp.draft_tokens),
          a.speculative_num_draft_tokens.has_value() &&
              *a.speculative_num_draft_tokens == sp.draft_tokens,
          sp.rule);
}

// What SGLang's per-phase CUDA-graph flags change that kvplan does not model
// (server_args.py @v0.5.14 _parse_cuda_graph_config; the same to v0.5.18). kvplan reads the
// decode graphs' largest batch (--cuda-graph-max-bs, --cuda-graph-max-bs-decode) and captures
// SGLang's default batch list up to it; "" for any other flag.
std::string SglangGraphFlagEffect(const std::string& flag) {
  static const std::pair<const char*, const char*> kEffects[] = {
      {"--cuda-graph-bs-decode",
       "the decode batch sizes captured (cuda_graph_config[decode].bs): graph memory and the "
       "largest batch run in a graph"},
      {"--cuda-graph-bs",
       "the decode batch sizes captured (cuda_graph_config[decode].bs from 0.5.14): graph "
       "memory and the largest batch run in a graph"},
      {"--cuda-graph-max-bs-prefill",
       "the largest prefill graph, in tokens (cuda_graph_config[prefill].max_bs, once "
       "--piecewise-cuda-graph-max-tokens): piecewise-graph memory"},
      {"--cuda-graph-bs-prefill",
       "the prefill graph sizes captured (cuda_graph_config[prefill].bs): piecewise-graph "
       "memory"},
      {"--disable-decode-cuda-graph",
       "no decode graphs (cuda_graph_config[decode].backend disabled): their memory is not "
       "reserved"},
      {"--cuda-graph-backend-decode",
       "the decode graphs' backend (disabled: none captured, no graph memory)"},
  };
  for (const auto& [name, effect] : kEffects) {
    if (flag == name) {
      return fmt::format(
          "{}: not one of the SGLang flags kvplan models; ignored, so this plan does not show "
          "what it changes: {}",
          flag, effect);
    }
  }
  return "";
}

}  // namespace

void DescribeSglangLaunchWarnings(const SglangLaunch& l, const std::string& asked_version,
                                  const ModelSpec* draft, PlanResult* r) {
  if (l.newer_than_modelled) {
    r->warnings.push_back(
        fmt::format("SGLang {} is newer than the newest modelled release; main's rules are used",
                    asked_version));
  }
  if (l.eagle_with_eagle3_draft) {
    r->warnings.push_back(
        "--speculative-algorithm EAGLE with an EAGLE-3 draft (" + draft->architecture +
        "): SGLang does not capture the target's 3-layer hidden states, the draft's fc is "
        "skipped and no draft token is accepted (accept len 1.00, slower than no speculation; "
        "sglang PR #21272); use --speculative-algorithm EAGLE3");
  }
  for (std::string& w : SglangDsaWarnings(l.dsa, l.version)) r->warnings.push_back(std::move(w));
  if (l.dp_attention_turned_off) {
    r->warnings.push_back("--enable-dp-attention with --dp-size 1 is turned off by SGLang");
  }
  r->warnings.insert(r->warnings.end(), l.args.flag_notes.begin(), l.args.flag_notes.end());
  for (const std::string& f : l.args.unknown_flags) {
    const std::string graph = SglangGraphFlagEffect(f);
    r->warnings.push_back(graph.empty() ? UnknownFlagWarning("SGLang", f) : graph);
  }
}

void DescribeSglangSettings(const SglangStages& s, const ModelSpec& model, const GpuSpec& gpu,
                            PlanResult* r) {
  DescribeStartSettings(s, model, gpu, r);
  const SglangArgs& a = s.launch.args;
  const SglangDefaults& d = s.settings.defaults;
  r->settings.push_back(
      {"--max-running-requests",
       s.verdict.ok ? std::to_string(s.running.max_running_requests) : "not reached",
       a.max_running_requests.has_value() && !s.launch.deepseek_v4_requests, RequestsRuleText(s)});
  const int64_t graph_max_bs = s.slack.graph_max_bs;
  // Named as the release spells it (from 0.5.14 --cuda-graph-max-bs-decode), as a fix would be.
  r->settings.push_back(
      {SglangFlagToWrite(s.launch.version, "--cuda-graph-max-bs"),
       a.disable_cuda_graph ? "disabled" : std::to_string(graph_max_bs),
       a.cuda_graph_max_bs.has_value() || a.disable_cuda_graph,
       d.cuda_graph_rule +
           (graph_max_bs < d.cuda_graph_max_bs
                ? fmt::format("; clipped to the request pool ({})", s.pool.max_num_reqs)
                : "")});
}

}  // namespace kvplan
