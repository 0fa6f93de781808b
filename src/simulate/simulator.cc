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

class Simulator {
 public:
  explicit Simulator(const SimulatorSetup& setup)
      : setup_(setup), cache_(std::max<int64_t>(1, setup.kv.page_tokens)) {
    state_.kv = setup.kv;
    if (setup.prefix_caching) state_.kv.cache = &cache_;
  }
  void Run(SimulateResult* out);

 private:
  void Issue(const ArrivingRequest& a, double at_us);
  bool AdmitArrivals();
  void Deliver(bool everything);
  void Step();
  void CountTokens(const StepBatch& batch);
  void Finish(SimRequest* r);
  BatchShape ShapeOf(const StepBatch& batch) const;

  const SimulatorSetup& setup_;
  PrefixCache cache_;
  SchedulerState state_;
  StepBatch batch_;
  ServingMetrics metrics_;
  std::vector<std::unique_ptr<SimRequest>> storage_;
  std::vector<SimRequest*> free_;
  std::vector<SimRequest*> finished_;
  std::optional<ArrivingRequest> pending_;  // open loop: the next arrival
  std::deque<SimRequest*> inbox_;           // sent, not yet seen by the scheduler
  double now_us_ = 0, first_arrival_us_ = -1;
  double step_start_us_ = -1;  // when the step that just ran began; -1: the engine was idle
  int64_t next_id_ = 0, in_system_ = 0, steps_ = 0;
};

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
  inbox_.push_back(r);
  ++in_system_;
}

// Hands the scheduler the requests that have reached it by now, in arrival
// order: all of them, or, when the engine chose this step's batch as the last
// one began, those that reached it before that.
void Simulator::Deliver(bool everything) {
  const bool cut = !everything && setup_.schedules_ahead && step_start_us_ >= 0;
  const double by = cut ? step_start_us_ : now_us_;
  while (!inbox_.empty() && (cut ? inbox_.front()->seen_us < by : inbox_.front()->seen_us <= by)) {
    state_.waiting.push_back(inbox_.front());
    inbox_.pop_front();
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
  state_.kv.Release(r);
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

void Simulator::Step() {
  Deliver(false);
  setup_.scheduler->Schedule(&state_, &batch_);
  if (batch_.entries.empty() && !inbox_.empty()) {
    // Nothing to run: the idle engine waits for the first request to reach
    // it and takes everything that has by then.
    now_us_ = std::max(now_us_, inbox_.front()->seen_us);
    Deliver(true);
    setup_.scheduler->Schedule(&state_, &batch_);
  }
  if (batch_.entries.empty()) {
    step_start_us_ = -1;
    if (pending_) {
      now_us_ = std::max(now_us_, pending_->arrival_us);
      return;
    }
    throw InputError(fmt::format("the scheduler can run none of the {} requests waiting",
                                 state_.waiting.size()));
  }
  step_start_us_ = now_us_;
  now_us_ += setup_.step_us(ShapeOf(batch_));
  ++steps_;
  CountTokens(batch_);
  const KvPool& kv = state_.kv;
  metrics_.ObserveKv(static_cast<double>(kv.total_pages - kv.AvailablePages()) /
                     static_cast<double>(std::max<int64_t>(1, kv.total_pages)));
  setup_.scheduler->AfterStep(&state_, batch_);
  if (finished_.empty()) return;
  std::erase_if(state_.running, [](const SimRequest* r) { return r->done; });
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
  out->preemptions = state_.preemptions;
  out->steps = steps_;
  out->prefix_caching = setup_.prefix_caching;
  out->prefix_hit_tokens = cache_.hit_tokens();
  out->prefix_query_tokens = cache_.query_tokens();
  if (cache_.query_tokens() > 0) {
    out->prefix_cache_hit_rate =
        static_cast<double>(cache_.hit_tokens()) / static_cast<double>(cache_.query_tokens());
  }
}

}  // namespace

void RunSimulation(const SimulatorSetup& setup, SimulateResult* out) {
  Simulator sim(setup);
  sim.Run(out);
}

}  // namespace kvplan
