#include "simulate/sglang_scheduler.h"

#include <algorithm>
#include <limits>

#include "simulate/prefix_cache.h"
#include "simulate/sglang_radix.h"

namespace kvplan {
namespace {

// python/sglang/srt/environ.py (v0.5): the new-token-ratio and retraction constants.
constexpr double kInitNewTokenRatio = 0.7;        // SGLANG_INIT_NEW_TOKEN_RATIO
constexpr double kMinNewTokenRatioFactor = 0.14;  // SGLANG_MIN_NEW_TOKEN_RATIO_FACTOR
constexpr double kNewTokenRatioDecaySteps = 600;  // SGLANG_NEW_TOKEN_RATIO_DECAY_STEPS
constexpr int64_t kRetractDecodeSteps = 20;       // SGLANG_RETRACT_DECODE_STEPS
constexpr int64_t kClipMaxNewTokens = 4096;       // SGLANG_CLIP_MAX_NEW_TOKENS_ESTIMATION
// managers/scheduler_recv_skipper.py (v0.5): what the last batch adds to the
// recv counter: DECODE (and TARGET_VERIFY) 1, any other forward mode 1000.
constexpr int64_t kRecvWeightDecode = 1;
constexpr int64_t kRecvWeightOther = 1000;

int64_t ClippedNewTokens(const SimRequest& r) {
  return std::min(r.output - r.generated, kClipMaxNewTokens);
}

}  // namespace

SglangScheduler::SglangScheduler(const SglangSchedulerLimits& limits) : limits_(limits) {
  // managers/scheduler.py init_new_token_ratio (v0.5): init = min(0.7 * conservativeness, 1),
  // min = min(init * 0.14, 1), decay = (init - min) / 600
  init_ratio_ = std::min(kInitNewTokenRatio * limits_.schedule_conservativeness, 1.0);
  min_ratio_ = std::min(init_ratio_ * kMinNewTokenRatioFactor, 1.0);
  decay_ = (init_ratio_ - min_ratio_) / kNewTokenRatioDecaySteps;
  new_token_ratio_ = init_ratio_;
}

// managers/scheduler.py get_new_batch_prefill and schedule_policy.py PrefillAdder (v0.5).
bool SglangScheduler::SchedulePrefill(SchedulerState* s, StepBatch* batch) {
  const int64_t page = s->kv.page_tokens;
  // schedule_policy.py PrefillAdder.__init__ (v0.5): running requests reserve
  // min(max_new_tokens - len(output_ids), CLIP) * new_token_ratio
  double reserved = 0;
  for (const SimRequest* r : s->running) reserved += ClippedNewTokens(*r) * new_token_ratio_;
  double rem_total = static_cast<double>(s->kv.FreeTokens()) - reserved;
  int64_t rem_chunk = limits_.chunked_prefill_size > 0 ? limits_.chunked_prefill_size
                                                       : std::numeric_limits<int64_t>::max();
  int64_t rem_input = limits_.max_prefill_tokens;
  // schedule_policy.py SchedulePolicy.calc_priority (v0.5), --schedule-policy lpm
  if (limits_.longest_prefix_first) SortByLongestPrefix(s);
  // scheduler.py get_new_batch_prefill (v0.5): the chunked request continues first
  // (PrefillAdder.add_chunked_req: extend up to rem_chunk_tokens, page-aligned)
  int64_t admitted = 0;
  if (chunked_) {
    int64_t len = chunked_->Known() - chunked_->computed;
    if (len > rem_chunk) len = std::max(page, rem_chunk / page * page);
    if (!s->kv.Grow(chunked_, chunked_->computed + len)) return false;
    batch->entries.push_back({chunked_, len});
    rem_chunk -= len;
    rem_input -= len;
    rem_total -= static_cast<double>(len);
    if (chunked_->computed + len < chunked_->Known()) return true;
    // Its last chunk: it joins the running batch after this step, and a new
    // request may become the chunked one.
    admitted_.push_back(chunked_);
    chunked_ = nullptr;
    ++admitted;
  }
  while (!s->waiting.empty()) {
    // Not yet taken from the socket (FCFS: neither is anyone behind it).
    if (!s->waiting.front()->received) break;
    // scheduler.py get_new_batch_prefill (v0.5): stop at max_running_requests
    if (static_cast<int64_t>(s->running.size()) + admitted >= limits_.max_running_requests) break;
    // schedule_policy.py budget_state (v0.5): rem_input_tokens / rem_chunk_tokens <= 0 -> OTHER
    if (rem_input <= 0 || rem_chunk <= 0) break;
    SimRequest* r = s->waiting.front();
    // schedule_batch.py init_next_round_input (v0.5): the radix cache's match
    // (prefix_indices) is not extended; add_one_req locks it (_lock_node), which
    // takes its evictable pages out of rem_total_tokens
    const PrefixHit hit = TakeCachedPrefix(&s->kv, r);
    rem_total -= static_cast<double>(hit.locked_pages * page);
    const int64_t extend = r->Known() - r->computed;
    const int64_t new_tokens = ClippedNewTokens(*r);
    const bool whole = extend <= rem_chunk;
    // schedule_policy.py add_one_req (v0.5): a prompt over rem_chunk_tokens is
    // truncated to it (page-aligned) and becomes the chunked request
    const int64_t len = whole ? extend : rem_chunk / page * page;
    // schedule_policy.py add_one_req (v0.5): total_tokens >= rem_total_tokens -> NO_TOKEN
    if (static_cast<double>(extend + new_tokens) >= rem_total || len <= 0 ||
        !s->kv.Grow(r, r->computed + len)) {
      ReturnCachedPrefix(&s->kv, r);
      break;
    }
    CountPrefixHit(&s->kv, *r, hit);
    s->waiting.pop_front();
    batch->entries.push_back({r, len});
    ++admitted;
    // schedule_policy.py _update_prefill_budget (v0.5): offset += ceil_paged(extend) +
    // max_new_tokens + page_size; a chunk reserves no new tokens yet
    const int64_t paged = s->kv.PagesFor(len) * page;
    rem_total -= static_cast<double>(paged + (whole ? new_tokens : 0) + page);
    rem_chunk -= paged;
    rem_input -= paged;
    if (!whole) {
      chunked_ = r;
      break;
    }
    admitted_.push_back(r);
  }
  return !batch->entries.empty();
}

// schedule_batch.py retract_decode (v0.5): sort by (len(output_ids), -len(origin_input_ids))
// descending and retract from the end until available >= num_reqs * SGLANG_RETRACT_DECODE_STEPS
void SglangScheduler::Retract(SchedulerState* s) {
  std::stable_sort(s->running.begin(), s->running.end(),
                   [](const SimRequest* a, const SimRequest* b) {
                     if (a->generated != b->generated) return a->generated > b->generated;
                     return a->prompt < b->prompt;
                   });
  int64_t total_decoded = 0, total_max_new = 0;
  for (const SimRequest* r : s->running) {
    total_decoded += r->generated;
    total_max_new += r->output;
  }
  bool first = true;
  while (s->running.size() > 1 &&
         (first ||
          s->kv.FreeTokens() < static_cast<int64_t>(s->running.size()) * kRetractDecodeSteps)) {
    first = false;
    SimRequest* r = s->running.back();
    s->running.pop_back();
    total_decoded -= r->generated;
    total_max_new -= r->output;
    s->Requeue(r);
  }
  // schedule_batch.py retract_decode (v0.5): new_estimate_ratio =
  // (total_decoded_tokens + RETRACT_DECODE_STEPS * len(reqs)) / total_max_new_tokens, max 1
  const double n = static_cast<double>(s->running.size());
  new_token_ratio_ = std::min(1.0, (static_cast<double>(total_decoded) + kRetractDecodeSteps * n) /
                                       static_cast<double>(std::max<int64_t>(1, total_max_new)));
}

void SglangScheduler::ScheduleDecode(SchedulerState* s, StepBatch* batch) {
  // scheduler.py update_running_batch -> check_decode_mem (v0.5): each request
  // needs room for its next token; otherwise retract
  // needs room for its next token (speculation: schedule_batch.py check_decode_mem
  // (v0.5) times buf_multiplier); otherwise retract
  const int64_t reserve = limits_.decode_reserve_tokens;
  auto fits = [s, reserve] {
    int64_t need = 0;
    for (const SimRequest* r : s->running) need += s->kv.PagesFor(r->computed + reserve) - r->pages;
    // check_decode_mem (v0.5): the tree cache is evicted for what the allocator lacks
    return need <= s->kv.AvailablePages();
  };
  retracted_ = !fits();
  if (retracted_) Retract(s);
  for (SimRequest* r : s->running) {
    if (!s->kv.Grow(r, r->computed + reserve)) break;
    batch->entries.push_back({r, 1});
  }
}

// scheduler_recv_skipper.py SchedulerRecvSkipper.handle (v0.5): the counter grows by the
// last batch's weight and the scheduler receives once it reaches the interval.
bool SglangScheduler::SkipperLetsReceive() {
  if (limits_.scheduler_recv_interval <= 1) return true;
  recv_counter_ += last_step_decoded_ ? kRecvWeightDecode : kRecvWeightOther;
  if (recv_counter_ < limits_.scheduler_recv_interval) return false;
  recv_counter_ = 0;
  return true;
}

// scheduler.py recv_requests (v0.5): every request sent so far. The ones not yet
// received are the newest, at the back of the queue. True when any was received.
bool SglangScheduler::Receive(SchedulerState* s) const {
  bool any = false;
  for (auto it = s->waiting.rbegin(); it != s->waiting.rend() && !(*it)->received; ++it) {
    (*it)->received = true;
    any = true;
  }
  return any;
}

void SglangScheduler::Schedule(SchedulerState* s, StepBatch* batch) {
  batch->Clear();
  admitted_.clear();
  retracted_ = false;
  if (SkipperLetsReceive()) Receive(s);
  // scheduler.py get_next_batch_to_run (v0.5): a new prefill batch runs first;
  // otherwise the running batch decodes
  prefill_step_ = SchedulePrefill(s, batch);
  if (!prefill_step_ && !s->running.empty()) ScheduleDecode(s, batch);
  // Nothing to run: the idle event loop spins (no GPU work) until the counter
  // lets it receive, which takes microseconds.
  if (batch->entries.empty() && Receive(s)) prefill_step_ = SchedulePrefill(s, batch);
  last_step_decoded_ = !prefill_step_ && !batch->entries.empty();
}

void SglangScheduler::AfterStep(SchedulerState* s, const StepBatch& batch) {
  // scheduler.py process_batch_result_prefill (v0.5): cache_unfinished_req puts each
  // prefill's computed tokens in the radix cache
  if (prefill_step_) {
    for (const BatchEntry& e : batch.entries) CachePrefix(&s->kv, e.request, e.request->computed);
  }
  // scheduler.py get_next_batch_to_run (v0.5): the last prefill batch merges into the running batch
  s->running.insert(s->running.end(), admitted_.begin(), admitted_.end());
  // scheduler.py update_running_batch (v0.5): after a decode step without
  // retraction, new_token_ratio = max(new_token_ratio - decay, min_new_token_ratio)
  if (!prefill_step_ && !batch.entries.empty() && !retracted_)
    new_token_ratio_ = std::max(new_token_ratio_ - decay_, min_ratio_);
  // speculative/eagle_info.py (v0.5) verify: the rejected drafts' slots are freed
  if (!prefill_step_ && limits_.decode_reserve_tokens > 1) {
    for (const BatchEntry& e : batch.entries) s->kv.Trim(e.request, e.request->computed);
  }
}

}  // namespace kvplan
