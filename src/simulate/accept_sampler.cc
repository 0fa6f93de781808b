#include "simulate/accept_sampler.h"

#include "perf/speculative.h"

namespace kvplan {

AcceptSampler::AcceptSampler(double tau, int depth, uint64_t seed)
    : a_(ChainTokenAcceptance(tau, depth)), depth_(depth), rng_(seed) {}

int64_t AcceptSampler::Draw() {
  int64_t accepted = 1;  // the bonus token the verify pass samples
  while (accepted <= depth_ && rng_.Uniform() < a_) ++accepted;
  return accepted;
}

}  // namespace kvplan
