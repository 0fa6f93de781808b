// The simulator's random numbers: xoshiro256** seeded through splitmix64, and
// the transforms the workloads draw from (uniform, exponential, normal,
// gamma), written here so that a seed gives the same requests with any
// standard library (std::*_distribution differ between implementations).
#pragma once

#include <cstdint>

namespace kvplan {

class SimRng {
 public:
  explicit SimRng(uint64_t seed);

  uint64_t NextU64();
  // Uniform in [0, 1) with 53 random bits.
  double Uniform();
  // Exponential with mean 1: -ln(1 - U).
  double Exponential();
  // Standard normal, Box-Muller (the second value of each pair is kept).
  double Normal();
  // Gamma with `shape` > 0 and scale 1: Marsaglia and Tsang (2000), with the
  // shape < 1 boost U^(1/shape).
  double Gamma(double shape);

 private:
  uint64_t s_[4];
  bool has_spare_ = false;
  double spare_ = 0;
};

}  // namespace kvplan
