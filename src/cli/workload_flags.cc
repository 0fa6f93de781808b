#include "cli/workload_flags.h"

#include <fmt/format.h>

#include "base/checked_math.h"
#include "kvplan/error.h"

namespace kvplan::cli {

void AddWorkloadOptions(Command* cmd, WorkloadSpec* w, bool closed_loop) {
  if (closed_loop) {
    cmd->add_option("--concurrency", w->concurrency, "Closed loop: requests in flight");
  }
  cmd->add_option("--rate", w->rate, "Open loop: requests per second");
  cmd->add_option("--arrival", w->arrival, "poisson (default), constant or gamma");
  cmd->add_option("--burstiness", w->burstiness, "Gamma arrivals' shape (1 = Poisson)");
  cmd->add_option("--duration", w->duration_s, "With --rate: seconds of arrivals");
  cmd->add_option("--num-requests", w->num_requests, "Requests to issue (default 1000)");
  cmd->add_option("--trace", w->trace,
                  "CSV or JSONL trace with arrival_ms, input_tokens, output_tokens");
  cmd->add_option("--input-len", w->input.mean, "Input tokens per request (default 1024)");
  cmd->add_option("--output-len", w->output.mean, "Output tokens per request (default 128)");
  cmd->add_option("--input-dist", w->input.dist, "fixed, uniform, normal or lognormal");
  cmd->add_option("--output-dist", w->output.dist, "fixed, uniform, normal or lognormal");
  cmd->add_option("--input-spread", w->input.spread,
                  "uniform: +-fraction; normal: stddev / mean; lognormal: sigma");
  cmd->add_option("--output-spread", w->output.spread, "As --input-spread");
  cmd->add_option("--seed", w->seed, "Random seed (default 0)");
  cmd->add_option("--prefix-len", w->prefix_len,
                  "Tokens of a shared prefix put before each input (with --prefix-groups)");
  cmd->add_option("--prefix-groups", w->prefix_groups,
                  "Distinct shared prefixes; each request draws one uniformly");
  cmd->add_option("--prefix-group-weights", w->prefix_group_weights,
                  "w1,w2,...: draw the groups in these proportions instead")
      ->delimiter(',');
  cmd->add_option("--prefix-hit-rate", w->prefix_hit_rate,
                  "Fraction of each prompt found in the prefix cache (0 to 1)");
}

void CheckWorkloadBounds(const WorkloadSpec& w) {
  CheckedAtMost(w.input.mean, kMaxInputCount, "--input-len");
  CheckedAtMost(w.output.mean, kMaxInputCount, "--output-len");
  if (w.concurrency) CheckedAtMost(*w.concurrency, kMaxInputCount, "--concurrency");
  if (w.prefix_len) CheckedAtMost(*w.prefix_len, kMaxInputCount, "--prefix-len");
  if (w.prefix_groups) CheckedAtMost(*w.prefix_groups, kMaxInputCount, "--prefix-groups");
  if (w.prefix_group_weights.size() > static_cast<size_t>(kMaxInputCount)) {
    throw InputError("--prefix-group-weights: too many groups");
  }
  if (w.num_requests) CheckedAtMost(*w.num_requests, kMaxInputCount, "--num-requests");
  if (w.rate && w.duration_s && *w.rate * *w.duration_s > static_cast<double>(kMaxInputCount)) {
    throw InputError(
        fmt::format("--rate {} for --duration {} s is {:.3g} requests, too many (at most {})",
                    *w.rate, *w.duration_s, *w.rate * *w.duration_s, kMaxInputCount));
  }
}

}  // namespace kvplan::cli
