#include "tune/tune_memory.h"

#include <algorithm>
#include <cmath>

#include "base/units.h"
#include "kvplan/error.h"

namespace kvplan {

MemPoint PlanMemoryPoint(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                         const SglangArgs& args, const ModelSpec* draft) {
  SglangPlanOptions opts;
  opts.explain = false;
  opts.fixes = false;
  MemPoint m;
  try {
    const PlanResult r = PlanSglang(version, model, gpu, args, {}, draft, opts);
    m.ok = r.ok && r.max_total_num_tokens > 0;
    m.mfs = r.fraction;
    m.pre = r.pre_load_free_bytes;
    m.tokens = r.max_total_num_tokens;
    m.max_running = r.max_running_requests;
    m.context_len = r.context_length;
  } catch (const InputError&) {
    m.ok = false;  // flags the engine itself rejects for this model (e.g. EP not dividing)
  }
  return m;
}

MemPoint ReplayMemory(const MemFacts& f, double mfs) {
  MemPoint m = f.at_auto;
  m.mfs = mfs;
  // model_runner.py profile_max_num_token: rest = post - pre * (1 - mfs), in
  // GiB floats (float32 after the all-reduce when world > 1).
  const double pre = f.float32_free ? static_cast<double>(static_cast<float>(f.at_auto.pre))
                                    : static_cast<double>(f.at_auto.pre);
  const double post = f.float32_free ? static_cast<double>(static_cast<float>(f.post))
                                     : static_cast<double>(f.post);
  const double g = static_cast<double>(kGiB);
  const double rest_gib = post / g - pre / g * (1 - mfs);
  const int64_t rest = TruncToInt64(rest_gib * g);
  int64_t tokens = FloorDiv(rest, f.cell);
  // init_memory_pool: max_num_reqs, then tokens // page_size * page_size.
  const int64_t reqs =
      f.speculative ? 48
                    : std::min<int64_t>(
                          std::max<int64_t>(TruncToInt64(static_cast<double>(tokens) /
                                                         static_cast<double>(m.context_len) * 512),
                                            2048),
                          4096);
  tokens = FloorDiv(tokens, f.page) * f.page;
  m.tokens = tokens;
  // kv_cache_configurator.py resolve_max_num_reqs (newest): min(estimate, tokens // 2).
  m.max_running = std::max<int64_t>(0, std::min(reqs, tokens / 2));
  m.ok = rest_gib > 0 && tokens > 0;
  return m;
}

MemFacts PlanMemoryFacts(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                         SglangArgs args, const ModelSpec* draft) {
  MemFacts f;
  args.mem_fraction_static.reset();
  SglangPlanOptions opts;
  opts.explain = true;
  opts.fixes = false;
  try {
    const PlanResult r = PlanSglang(version, model, gpu, args, {}, draft, opts);
    f.at_auto.ok = r.ok && r.max_total_num_tokens > 0;
    f.at_auto.mfs = r.fraction;
    f.at_auto.pre = r.pre_load_free_bytes;
    f.at_auto.tokens = r.max_total_num_tokens;
    f.at_auto.max_running = r.max_running_requests;
    f.at_auto.context_len = r.context_length;
    f.post = r.post_load_free_bytes;
    f.cell = r.cell_size_bytes;
    const Figure* page = r.FindFigure("page_size");
    f.page = page != nullptr ? static_cast<int64_t>(page->value) : 1;
    f.float32_free = args.tp * args.pp * (args.enable_dp_attention ? 1 : args.dp) > 1;
    f.speculative = !args.speculative_algorithm.empty() && args.speculative_algorithm != "NGRAM";
    // SWA pools and the mamba/linear state pool (engines/sglang/state_pool.cc) split the rest
    // memory in ways the replay below does not: those models are planned at every fraction.
    const bool hybrid = r.FindFigure("swa_layer_tokens") != nullptr ||
                        model.NumLayersOfKind(LayerKind::kLinear) > 0;
    if (version.empty() && !model.multimodal && !hybrid && f.cell > 0 && f.page > 0 &&
        f.at_auto.context_len > 0) {
      const MemPoint again = ReplayMemory(f, f.at_auto.mfs);
      f.replayable = again.ok == f.at_auto.ok && again.tokens == f.at_auto.tokens &&
                     (!again.ok || again.max_running == f.at_auto.max_running);
    }
  } catch (const InputError&) {
    f.at_auto.ok = false;
  }
  return f;
}

}  // namespace kvplan
