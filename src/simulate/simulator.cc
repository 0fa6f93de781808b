#include "simulate/simulator.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "base/text.h"
#include "kvplan/error.h"
#include "simulate/metrics.h"
#include "simulate/prefix_cache.h"

namespace kvplan {
namespace {

// One scheduler over its KV pool: the whole engine, or one DP attention rank.
struct Rank {
  EngineScheduler* scheduler = nullptr;
  // Each DP attention rank has its own pool and so its own radix tree (SGLang v0.5
  // scheduler.py: one tree_cache per scheduler process).
  std::unique_ptr<PrefixCache> cache;
  SchedulerState state;
  StepBatch batch;
  std::deque<SimRequest*> inbox;  // sent to this rank, not yet seen by its scheduler
};

class Simulator {
 public:
  explicit Simulator(const SimulatorSetup& setup);
  void Run(SimulateResult* out);

 private:
  void Issue(const ArrivingRequest& a, double at_us);
  bool AdmitArrivals();
  void Deliver(Rank* rank, bool everything);
  bool ScheduleRanks();
  void Step();
  void CountTokens(const StepBatch& batch);
  void ObserveKv();
  void Finish(SimRequest* r);
  BatchShape ShapeOf(const StepBatch& batch) const;

  const SimulatorSetup& setup_;
  std::vector<Rank> ranks_;
  ServingMetrics metrics_;
  std::vector<std::unique_ptr<SimRequest>> storage_;
  std::vector<SimRequest*> free_;
  std::vector<SimRequest*> finished_;
  std::optional<ArrivingRequest> pending_;  // open loop: the next arrival
  double now_us_ = 0, first_arrival_us_ = -1;
  double step_start_us_ = -1;  // when the step that just ran began; -1: the engine was idle
  int64_t next_id_ = 0, in_system_ = 0, steps_ = 0;
  size_t next_rank_ = 0;  // the round robin's next DP rank
};

Simulator::Simulator(const SimulatorSetup& setup) : setup_(setup) {
  std::vector<EngineScheduler*> schedulers = setup.dp_ranks;
  if (schedulers.empty()) schedulers.push_back(setup.scheduler);
  ranks_.resize(schedulers.size());
  for (size_t i = 0; i < ranks_.size(); ++i) {
    ranks_[i].scheduler = schedulers[i];
    ranks_[i].state.kv = setup.kv;
    ranks_[i].cache = std::make_unique<PrefixCache>(std::max<int64_t>(1, setup.kv.page_tokens));
    if (setup.prefix_caching) ranks_[i].state.kv.cache = ranks_[i].cache.get();
  }
}

void Simulator::Issue(const ArrivingRequest& a, double at_us) {
  const int64_t tokens = a.input_tokens + a.output_tokens;
  if (tokens > setup_.max_request_tokens) {
    throw InputError(fmt::format(
        "request {} needs {} tokens (input {} + output {}); this launch holds at most {} per "
        "request",
        next_id_, WithThousands(tokens), a.input_tokens, a.output_tokens,
        WithThousands(setup_.max_request_tokens)));
  }
  SimRequest* r = nullptr;
  if (free_.empty()) {
    storage_.push_back(std::make_unique<SimRequest>());
    r = storage_.back().get();
  } else {
    r = free_.back();
    free_.pop_back();
  }
  *r = SimRequest{};
  r->id = next_id_++;
  r->arrival_us = at_us;
  r->seen_us = at_us + setup_.admission_us;
  r->prompt = a.input_tokens;
  r->output = a.output_tokens;
  r->prefix_group = a.prefix_group;
  r->prefix_len = a.prefix_len;
  r->hit_tokens = a.hit_tokens;
  if (first_arrival_us_ < 0) first_arrival_us_ = at_us;
  // managers/data_parallel_controller.py round_robin_scheduler (SGLang v0.4.6 to v0.5.18; the
  // default load_balance_method, "auto" from v0.5.8, is round_robin outside PD disaggregation):
  // the next rank in turn, in the order the controller receives the requests.
  r->rank = static_cast<int>(next_rank_);
  next_rank_ = (next_rank_ + 1) % ranks_.size();
  ranks_[static_cast<size_t>(r->rank)].inbox.push_back(r);
  ++in_system_;
}

// Hands the scheduler the requests that have reached it by now, in arrival
// order: all of them, or, when the engine chose this step's batch as the last
// one began, those that reached it before that.
void Simulator::Deliver(Rank* rank, bool everything) {
  const bool cut = !everything && setup_.schedules_ahead && step_start_us_ >= 0;
  const double by = cut ? step_start_us_ : now_us_;
  std::deque<SimRequest*>& inbox = rank->inbox;
  while (!inbox.empty() && (cut ? inbox.front()->seen_us < by : inbox.front()->seen_us <= by)) {
    rank->state.waiting.push_back(inbox.front());
    inbox.pop_front();
  }
}

// Open loop: queues every request that has arrived by now. False when nothing
// is in the system and nothing more will arrive.
bool Simulator::AdmitArrivals() {
  for (;;) {
    while (pending_ && pending_->arrival_us <= now_us_) {
      Issue(*pending_, pending_->arrival_us);
      pending_ = setup_.workload->Next();
    }
    if (in_system_ > 0) return true;
    if (!pending_) return false;
    now_us_ = pending_->arrival_us;  // idle until the next arrival
  }
}

// A request decoding its next token (every known token but the last is cached).
bool IsDecode(const BatchEntry& e) {
  const SimRequest& r = *e.request;
  return e.new_tokens == 1 && r.computed + 1 == r.Known() && r.generated > 0;
}

BatchShape Simulator::ShapeOf(const StepBatch& batch) const {
  BatchShape b;
  for (const BatchEntry& e : batch.entries) {
    const SimRequest& r = *e.request;
    if (IsDecode(e)) {
      ++b.decode;
      b.decode_ctx += r.computed;
    } else {
      ++b.prefill;
      b.prefill_tokens += e.new_tokens;
      b.prefill_ctx += r.computed;
    }
  }
  return b;
}

void Simulator::CountTokens(const StepBatch& batch) {
  for (const BatchEntry& e : batch.entries) {
    SimRequest* r = e.request;
    // A speculative step caches the verified token and the accepted drafts
    // and samples one more: `gained` tokens at once.
    int64_t gained = 1;
    if (setup_.accepted_tokens && IsDecode(e)) {
      gained = std::min(setup_.accepted_tokens(), r->output - r->generated);
    }
    r->computed += e.new_tokens + gained - 1;
    if (r->computed < r->Known()) continue;  // a chunk of a longer prompt
    // Every known token is cached: the step samples the next one.
    if (r->first_token_us < 0) {
      r->first_token_us = now_us_;
    } else {
      metrics_.AddInterTokenMs((now_us_ - r->last_token_us) / 1000.0);
    }
    r->last_token_us = now_us_;
    r->generated += gained;
    if (r->generated == r->output) {
      r->done = true;
      finished_.push_back(r);
    }
  }
}

void Simulator::Finish(SimRequest* r) {
  ranks_[static_cast<size_t>(r->rank)].state.kv.Release(r);
  RequestOutcome o;
  o.id = r->id;
  o.arrival_ms = r->arrival_us / 1000.0;
  o.input_tokens = r->prompt;
  o.output_tokens = r->output;
  o.ttft_ms = (r->first_token_us - r->arrival_us) / 1000.0;
  o.e2e_ms = (now_us_ - r->arrival_us) / 1000.0;
  o.tpot_ms = r->output > 1 ? (o.e2e_ms - o.ttft_ms) / static_cast<double>(r->output - 1) : 0;
  o.preemptions = r->preemptions;
  metrics_.AddRequest(o, first_arrival_us_, now_us_);
  if (setup_.on_request) setup_.on_request(o);
  free_.push_back(r);
  --in_system_;
  if (setup_.workload->ClosedLoop()) {
    // The benchmark client sends its next request as soon as one returns.
    if (std::optional<ArrivingRequest> next = setup_.workload->Next()) Issue(*next, now_us_);
  }
}

// Every rank picks its batch; when none has anything to run, the idle engine
// waits for the first request to reach a rank and each takes everything that
// has reached it by then. False when no rank has a batch.
bool Simulator::ScheduleRanks() {
  bool any = false;
  for (Rank& k : ranks_) {
    Deliver(&k, false);
    k.scheduler->Schedule(&k.state, &k.batch);
    any = any || !k.batch.entries.empty();
  }
  if (any) return true;
  double first_seen = -1;
  for (const Rank& k : ranks_) {
    if (!k.inbox.empty() && (first_seen < 0 || k.inbox.front()->seen_us < first_seen))
      first_seen = k.inbox.front()->seen_us;
  }
  if (first_seen < 0) return false;
  now_us_ = std::max(now_us_, first_seen);
  for (Rank& k : ranks_) {
    Deliver(&k, true);
    k.scheduler->Schedule(&k.state, &k.batch);
    any = any || !k.batch.entries.empty();
  }
  return any;
}

void Simulator::ObserveKv() {
  int64_t used = 0, total = 0;
  for (const Rank& k : ranks_) {
    used += k.state.kv.total_pages - k.state.kv.AvailablePages();
    total += k.state.kv.total_pages;
  }
  metrics_.ObserveKv(static_cast<double>(used) / static_cast<double>(std::max<int64_t>(1, total)));
}

void Simulator::Step() {
  if (!ScheduleRanks()) {
    step_start_us_ = -1;
    if (pending_) {
      now_us_ = std::max(now_us_, pending_->arrival_us);
      return;
    }
    size_t waiting = 0;
    for (const Rank& k : ranks_) waiting += k.state.waiting.size();
    throw InputError(fmt::format("the scheduler can run none of the {} requests waiting", waiting));
  }
  step_start_us_ = now_us_;
  // scheduler.py (SGLang v0.5) prepare_mlp_sync_batch: under DP attention a rank without a
  // batch runs an idle one, so every rank steps together at the slowest rank's pace.
  double step_us = 0;
  for (const Rank& k : ranks_) {
    if (!k.batch.entries.empty()) step_us = std::max(step_us, setup_.step_us(ShapeOf(k.batch)));
  }
  now_us_ += step_us;
  ++steps_;
  for (const Rank& k : ranks_) CountTokens(k.batch);
  ObserveKv();
  for (Rank& k : ranks_) k.scheduler->AfterStep(&k.state, k.batch);
  if (finished_.empty()) return;
  for (Rank& k : ranks_) {
    std::erase_if(k.state.running, [](const SimRequest* r) { return r->done; });
  }
  for (SimRequest* r : finished_) Finish(r);
  finished_.clear();
}

void Simulator::Run(SimulateResult* out) {
  Workload& w = *setup_.workload;
  if (w.ClosedLoop()) {
    for (int i = 0; i < w.Concurrency(); ++i) {
      std::optional<ArrivingRequest> a = w.Next();
      if (!a) break;
      Issue(*a, 0);
    }
  } else {
    pending_ = w.Next();
  }
  while (w.ClosedLoop() ? in_system_ > 0 : AdmitArrivals()) Step();
  if (next_id_ == 0) throw InputError("the workload has no requests");
  metrics_.Fill(out);
  out->preemptions = 0;
  for (const Rank& k : ranks_) out->preemptions += k.state.preemptions;
  out->steps = steps_;
  out->prefix_caching = setup_.prefix_caching;
  out->prefix_hit_tokens = 0;
  out->prefix_query_tokens = 0;
  for (const Rank& k : ranks_) {
    out->prefix_hit_tokens += k.cache->hit_tokens();
    out->prefix_query_tokens += k.cache->query_tokens();
  }
  if (out->prefix_query_tokens > 0) {
    out->prefix_cache_hit_rate =
        static_cast<double>(out->prefix_hit_tokens) / static_cast<double>(out->prefix_query_tokens);
  }
}

}  // namespace

void RunSimulation(const SimulatorSetup& setup, SimulateResult* out) {
  Simulator sim(setup);
  sim.Run(out);
}

}  // namespace kvplan
