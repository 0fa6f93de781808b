// The tokens one request gains from one speculative step, drawn per request
// per step. A chain draft's verify accepts a prefix: the first draft token
// with probability a, each later one with probability a given the ones before
// it were accepted, and the bonus token always, so the accepted length is a
// truncated geometric on 1..depth+1 whose mean sum_{i=0..depth} a^i is the
// accept length perf uses (perf/speculative.h DefaultAcceptLength is that
// sum; ChainTokenAcceptance its inverse). A constant conditional rate is what
// the measured per-position acceptance shows: Kimi-K2.6's EAGLE-3 head on
// 8x RTX PRO 6000 accepts positions 1-3 at 0.645 / 0.393 / 0.240
// (local-inference-lab/rtx6kpro models/kimi-k26-v4.md), i.e. 0.645, 0.609
// and 0.611 given the one before.
#pragma once

#include <cstdint>

#include "simulate/rng.h"

namespace kvplan {

class AcceptSampler {
 public:
  // `tau`: the mean accepted length (incl. the bonus token), 1 to depth + 1.
  AcceptSampler(double tau, int depth, uint64_t seed);
  int64_t Draw();
  double token_acceptance() const { return a_; }

 private:
  double a_ = 0;
  int depth_ = 0;
  SimRng rng_;
};

}  // namespace kvplan
