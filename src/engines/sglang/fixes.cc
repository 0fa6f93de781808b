#include "engines/sglang/fixes.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "base/text.h"
#include "base/units.h"
#include "catalog/weights.h"
#include "engines/sglang/speculative.h"
#include "engines/sglang/stages.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// A changed launch the argument checks refuse (say a TP size DP attention
// cannot divide) is a failed re-plan, not an error of the original launch.
PlanResult Replan(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                  const SglangArgs& args, const SglangMeasured& measured, const ModelSpec* draft) {
  try {
    return PlanSglang(version, model, gpu, args, measured, draft, SglangPlanOptions{false, false});
  } catch (const InputError& e) {
    PlanResult failed;
    failed.error_message = e.what();
    return failed;
  }
}

std::string Effect(const PlanResult& p) {
  if (!p.ok) return "still fails: " + p.error_message;
  return fmt::format("starts: rest_memory {:.3f} GiB, {} KV tokens, max_running_requests {}",
                     ToGiB(p.rest_memory_bytes), WithThousands(p.max_total_num_tokens),
                     WithThousands(p.max_running_requests));
}

// The user's measured figures are for this TP; at another TP the weights per
// rank scale with the estimate's ratio.
SglangMeasured MeasuredAtTp(const ModelSpec& model, const SglangArgs& from, int to_tp,
                            const SglangMeasured& m) {
  SglangMeasured out = m;
  if (!m.pre_load_free_bytes || !m.post_load_free_bytes) {
    out.post_load_free_bytes.reset();
    return out;
  }
  Parallelism a, b;
  a.tp = from.tp;
  a.pp = b.pp = from.pp;
  a.dp = b.dp = from.dp;
  a.dp_attention = b.dp_attention = from.enable_dp_attention;
  b.tp = to_tp;
  const double wa = static_cast<double>(EstimateWeights(model, a).bytes_per_rank);
  const double wb = static_cast<double>(EstimateWeights(model, b).bytes_per_rank);
  const double measured_weights =
      static_cast<double>(*m.pre_load_free_bytes - *m.post_load_free_bytes);
  const double scaled = wa > 0 ? measured_weights * wb / wa : measured_weights * from.tp / to_tp;
  out.post_load_free_bytes = *m.pre_load_free_bytes - static_cast<int64_t>(scaled);
  return out;
}

}  // namespace

std::optional<double> SglangMinimumFraction(const std::string& version, const ModelSpec& model,
                                            const GpuSpec& gpu, const SglangArgs& args,
                                            const SglangMeasured& measured, const ModelSpec* draft,
                                            int64_t min_tokens) {
  // Tokens grow with the fraction, so bisect over thousandths.
  SglangArgs a = args;
  auto good = [&](int milli) {
    a.mem_fraction_static = milli / 1000.0;
    PlanResult p = Replan(version, model, gpu, a, measured, draft);
    return p.ok && p.max_total_num_tokens >= min_tokens;
  };
  int lo = 1, hi = 999;
  if (!good(hi)) return std::nullopt;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (good(mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return hi / 1000.0;
}

void SglangAddShardingFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                            const SglangArgs& args, const SglangMeasured& measured,
                            const ModelSpec* draft, PlanResult* r) {
  // Measured free memory belongs to the failed layout; re-plan from estimates.
  SglangMeasured m = measured;
  m.post_load_free_bytes.reset();
  if (model.IsMoe() && args.ep == 1 && args.tp > 1) {
    SglangArgs a = args;
    a.ep = args.tp;  // experts whole on each rank: no block split of their weights
    PlanResult p = Replan(version, model, gpu, a, m, draft);
    if (p.ok)
      r->fixes.push_back(
          {SglangFlagToWrite(version, "--ep-size"), std::to_string(a.ep), Effect(p)});
  }
  // The nearest TP sizes below and above that load and start.
  auto starts_at = [&](int tp) {
    SglangArgs a = args;
    a.tp = tp;
    PlanResult p = Replan(version, model, gpu, a, m, draft);
    if (p.ok) {
      r->fixes.push_back({SglangFlagToWrite(version, "--tp-size"), std::to_string(tp),
                          fmt::format("{} GPUs per replica; {}", tp * args.pp, Effect(p))});
    }
    return p.ok;
  };
  int below = args.tp - 1;
  while (below >= 1 && !starts_at(below)) --below;
  int above = args.tp + 1;
  while (above <= std::max(16, 2 * args.tp) && !starts_at(above)) ++above;
}

void SglangAddContextFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                           const SglangArgs& args, const SglangMeasured& measured,
                           const ModelSpec* draft, PlanResult* r) {
  SglangArgs shorter = args;
  shorter.context_length = model.max_position_embeddings;
  PlanResult p = Replan(version, model, gpu, shorter, measured, draft);
  if (p.ok) {
    r->fixes.push_back({SglangFlagToWrite(version, "--context-length"),
                        std::to_string(model.max_position_embeddings),
                        "the model's own length; " + Effect(p)});
  }
  SglangArgs allowed = args;
  allowed.allow_overwrite_longer_context_len = true;
  p = Replan(version, model, gpu, allowed, measured, draft);
  if (p.ok) {
    r->fixes.push_back(
        {"SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN", "1",
         fmt::format("SGLang warns and serves positions past {} the model was not trained for; {}",
                     WithThousands(model.max_position_embeddings), Effect(p))});
  }
}

void SglangAddFitWeightsFixes(const std::string& version, const ModelSpec& model,
                              const GpuSpec& gpu, const SglangArgs& args,
                              const SglangMeasured& measured, const ModelSpec* draft,
                              PlanResult* r) {
  // Measured free memory belongs to the failed layout; re-plan from estimates.
  SglangMeasured m = measured;
  m.post_load_free_bytes.reset();
  int largest_tp = args.tp;
  for (int tp = args.tp + 1; tp <= 8; ++tp) {
    SglangArgs a = args;
    a.tp = tp;
    PlanResult p = Replan(version, model, gpu, a, m, draft);
    if (p.ok) {
      r->fixes.push_back({SglangFlagToWrite(version, "--tp-size"), std::to_string(tp),
                          fmt::format("{} GPUs per replica; {}", tp * a.pp, Effect(p))});
      return;
    }
    // A layout that shards fails for memory, not with one of the load checks.
    if (p.error_message.rfind(kSglangLoadOomPrefix, 0) == 0) largest_tp = tp;
  }
  for (int pp = args.pp + 1; pp <= 8; ++pp) {
    SglangArgs a = args;
    a.tp = largest_tp;
    a.pp = pp;
    PlanResult p = Replan(version, model, gpu, a, m, draft);
    if (p.ok) {
      r->fixes.push_back({SglangFlagToWrite(version, "--pp-size"), std::to_string(pp),
                          fmt::format("with --tp-size {}: {} GPUs per replica; {}", largest_tp,
                                      largest_tp * pp, Effect(p))});
      return;
    }
  }
}

namespace {

// One launch and what fixing it re-plans with.
struct FixInput {
  const std::string& version;
  const ModelSpec& model;
  const GpuSpec& gpu;
  const SglangArgs& args;
  const SglangMeasured& measured;
  const ModelSpec* draft;

  PlanResult Replan(const SglangArgs& a) const {
    return kvplan::Replan(version, model, gpu, a, measured, draft);
  }
  std::optional<double> MinimumFraction(int64_t min_tokens) const {
    return SglangMinimumFraction(version, model, gpu, args, measured, draft, min_tokens);
  }
};

// For a launch that fails or cannot hold one request: the smallest fractions
// that start it and that hold one request.
void AddMinimumFractionFixes(const FixInput& in, PlanResult* r) {
  const int64_t one_request = r->context_length;
  if (auto m = in.MinimumFraction(1)) {
    SglangArgs a = in.args;
    a.mem_fraction_static = *m;
    PlanResult p = in.Replan(a);
    const double exact = 1 - ToGiB(r->post_load_free_bytes) / ToGiB(r->pre_load_free_bytes);
    if (!r->ok) {
      r->fixes.push_back(
          {SglangFlagToWrite(in.version, "--mem-fraction-static"), fmt::format("{:.3f}", *m),
           fmt::format("minimum viable (1 - post/pre = {:.4f}); {}", exact, Effect(p))});
    }
  }
  if (auto m = in.MinimumFraction(one_request)) {
    SglangArgs a = in.args;
    a.mem_fraction_static = *m;
    PlanResult p = in.Replan(a);
    r->fixes.push_back(
        {SglangFlagToWrite(in.version, "--mem-fraction-static"), fmt::format("{:.3f}", *m),
         fmt::format("smallest that holds one {}-token request; {}", one_request, Effect(p))});
  }
}

// For a user's --mem-fraction-static: SGLang's own value, and 0.88.
void AddUserFractionFixes(const FixInput& in, PlanResult* r) {
  const SglangArgs& args = in.args;
  if (!args.mem_fraction_static) return;
  {
    SglangArgs a = args;
    a.mem_fraction_static.reset();
    PlanResult p = in.Replan(a);
    if (p.ok && (!r->ok || p.max_total_num_tokens > r->max_total_num_tokens)) {
      r->fixes.push_back(
          {SglangFlagToWrite(in.version, "--mem-fraction-static"),
           fmt::format("{:.3f}", p.fraction),
           fmt::format("the value SGLang chooses itself (drop the flag); {}", Effect(p))});
    }
  }
  // 0.88 is what SGLang takes when it cannot read the GPU capacity
  // (nvidia-smi missing in a container), and the old tp-1 default: the value
  // a "known good" run without the flag often had.
  if (*args.mem_fraction_static < 0.88) {
    SglangArgs a = args;
    a.mem_fraction_static = 0.88;
    PlanResult p = in.Replan(a);
    if (p.ok) {
      r->fixes.push_back(
          {SglangFlagToWrite(in.version, "--mem-fraction-static"), "0.880",
           fmt::format("SGLang's own choice when it cannot read the GPU capacity; {}", Effect(p))});
    }
  }
}

// A smaller decode-graph batch lowers the automatic reserve and so raises
// the fraction (the story's 512 -> 128).
void AddGraphBatchFix(const FixInput& in, PlanResult* r) {
  const SglangArgs& args = in.args;
  if (args.mem_fraction_static || args.disable_cuda_graph) return;
  int64_t current = 0;
  if (const Figure* f = r->FindFigure("cuda_graph_max_bs"))
    current = static_cast<int64_t>(f->value);
  if (current <= 128) return;
  SglangArgs a = args;
  a.cuda_graph_max_bs = 128;
  PlanResult p = in.Replan(a);
  if (p.ok && p.max_total_num_tokens > r->max_total_num_tokens) {
    r->fixes.push_back({SglangFlagToWrite(in.version, "--cuda-graph-max-bs"), "128",
                        fmt::format("lowers the automatic reserve (mem_fraction_static {:.3f}); {}",
                                    p.fraction, Effect(p))});
  }
}

void AddFp8KvFix(const FixInput& in, PlanResult* r) {
  const bool fp8_kv = in.args.kv_cache_dtype.rfind("fp8", 0) == 0;
  if (fp8_kv) return;
  SglangArgs a = in.args;
  a.kv_cache_dtype = "fp8_e4m3";
  PlanResult p = in.Replan(a);
  if (p.ok && (!r->ok || p.max_total_num_tokens > r->max_total_num_tokens)) {
    r->fixes.push_back({SglangFlagToWrite(in.version, "--kv-cache-dtype"), "fp8_e4m3",
                        fmt::format("halves the KV bytes per token; {}", Effect(p))});
  }
}

// Twice the GPUs per replica, the measured weights scaled to the new TP.
void AddDoubleTpFix(const FixInput& in, PlanResult* r) {
  const SglangArgs& args = in.args;
  SglangArgs a = args;
  a.tp = args.tp * 2;  // the re-plan runs the sharding checks (catalog/sharding.h)
  PlanResult p = Replan(in.version, in.model, in.gpu, a,
                        MeasuredAtTp(in.model, args, a.tp, in.measured), in.draft);
  if (p.ok) {
    r->fixes.push_back({SglangFlagToWrite(in.version, "--tp-size"), std::to_string(a.tp),
                        fmt::format("{} GPUs per replica; {}", a.tp * a.pp, Effect(p))});
  }
}

}  // namespace

void SglangAddFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                    const SglangArgs& args, const SglangMeasured& measured, const ModelSpec* draft,
                    PlanResult* r) {
  const FixInput in{version, model, gpu, args, measured, draft};
  if (SglangEagleWithEagle3Draft(args.speculative_algorithm, draft)) {
    r->fixes.push_back({SglangFlagToWrite(version, "--speculative-algorithm"), "EAGLE3",
                        "the draft is an EAGLE-3 head; under EAGLE SGLang accepts no draft token "
                        "(sglang PR #21272)"});
  }
  const bool short_of_one_request = r->ok && r->max_total_num_tokens < r->context_length;
  if (!r->ok || short_of_one_request) AddMinimumFractionFixes(in, r);
  AddUserFractionFixes(in, r);
  AddGraphBatchFix(in, r);
  AddFp8KvFix(in, r);
  if ((!r->ok || short_of_one_request) && args.tp < 8 && !args.enable_dp_attention) {
    AddDoubleTpFix(in, r);
  }
}

}  // namespace kvplan
